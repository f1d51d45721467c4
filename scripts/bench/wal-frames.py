#!/usr/bin/env python3
"""Which pages the spool's commits write: the frames of a copy of a running agent's WAL, by the table (or index)
each frame's page belongs to, per commit.

    scripts/bench/wal-frames.py DIRECTORY

DIRECTORY holds `spool.sqlite` and `spool.sqlite-wal` copied from a running agent's state directory
(scripts/measure-spool-wear.sh copies them halfway through its paced run). A frame is a 24-byte header and one
page; a commit is the run of frames up to one whose header gives the database's size. The pages are named by
SQLite's dbstat table of the copy, which reads the WAL; page 1 is `sqlite_schema`'s, written whenever the file
grows (its header holds the page count). A page is named by its owner at the copy's end, so one freed and reused
within the WAL counts for its last owner; frames are told from an earlier generation's by their salts, not
checked against their checksums.
"""
import collections
import sqlite3
import struct
import sys

directory = sys.argv[1]
wal = open(f"{directory}/spool.sqlite-wal", "rb").read()
if len(wal) < 32:
    sys.exit(f"{directory}/spool.sqlite-wal: {len(wal)} bytes, no WAL header")
page_size = struct.unpack(">I", wal[8:12])[0]
salts = wal[16:24]
commits, frames, offset = [], [], 32
while offset + 24 + page_size <= len(wal):
    page, size = struct.unpack(">II", wal[offset:offset + 8])
    if wal[offset + 8:offset + 16] != salts:
        break  # a frame of an earlier generation of the WAL: the live part ends here
    frames.append(page)
    if size:
        commits.append(frames)
        frames = []
    offset += 24 + page_size
# Read-write: a copy with its WAL and no -shm; the WAL was read above, and closing checkpoints it into the copy.
database = sqlite3.connect(f"{directory}/spool.sqlite")
owner = {page: name for name, page in database.execute("SELECT name, pageno FROM dbstat")}
count = len(commits)
if count == 0:
    sys.exit(f"{directory}: no complete commit in the WAL")
per_table = collections.Counter(owner.get(page, f"page {page}") for commit in commits for page in commit)
total = sum(per_table.values())
print(f"{count} commits, {total / count:.2f} frames of {page_size + 24} bytes a commit "
      f"({total * (page_size + 24) / count:.0f} bytes):")
for name, frames_of_table in per_table.most_common():
    print(f"  {name}: {frames_of_table / count:.2f} a commit")
