#!/usr/bin/env python3
"""What SQLite's WAL index (`-shm`) costs the SD card, alone: the spool's commit pattern (WAL, 1 KB pages,
synchronous = FULL, two location rows and the `state` row a commit, a commit a second: the agent at 1 Hz makes
about one commit every 2 s of about two fixes, so the figure to take is the bytes a second) written by Python's
sqlite3, once with the index in the shared memory map `spool.sqlite-shm` beside the database (as the agent keeps
it, so that `waymark spool stats` and other readers can read a running agent's spool) and once with `PRAGMA
locking_mode = EXCLUSIVE` (the index on the heap, no `-shm`, no other reader). The kernel writes the map's dirty
pages back about every 30 s (vm.dirty_expire_centisecs) whatever the process syncs: the difference is that
write-back. The count starts after a warm-up of WARMUP commits (default 40: past the map's creation, whose
one-byte writes into each of its pages count once, and a first write-back) and runs for SECONDS more; it prints
/proc/self/io write_bytes a second and a location for each, before the database is closed.

    scripts/bench/shm-wear.py [SECONDS] [DIRECTORY] [WARMUP]   (default 150 s, a new directory under /var/tmp, 40)
"""
import os
import shutil
import sqlite3
import sys
import tempfile
import time

seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 150
given = sys.argv[2] if len(sys.argv) > 2 else ""
root = given or tempfile.mkdtemp(prefix="waymark-shm.", dir="/var/tmp")
warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 40
line = (b'{"type":"location","seq":21,"time":"2029-11-25T16:58:20.000Z","device":"vm","lat":49.025453333,'
        b'"lon":12.064743333,"alt_hae":386.9,"alt_msl":340.3,"h_acc":28.5,"v_acc":57.5,"speed":10.186,'
        b'"speed_acc":23.25,"course":181.3,"course_acc":66.7605,"mode":3}')


def written():
    with open("/proc/self/io") as io:
        return next(int(entry.split()[1]) for entry in io if entry.startswith("write_bytes"))


def run(mode):
    directory = f"{root}/{mode}"
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        os.remove(f"{directory}/{name}")
    database = sqlite3.connect(f"{directory}/spool.sqlite", isolation_level=None)
    database.execute("PRAGMA page_size = 1024")
    if mode == "exclusive":
        database.execute("PRAGMA locking_mode = EXCLUSIVE")
    database.execute("PRAGMA journal_mode = WAL")
    database.execute("PRAGMA synchronous = FULL")
    database.execute("CREATE TABLE event (seq INTEGER PRIMARY KEY, kind INTEGER, time INTEGER, line BLOB)")
    database.execute("CREATE TABLE state (key TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID")
    start, seq, counted = None, 0, 0
    for second in range(warmup + seconds):
        if second == warmup:
            start, counted = written(), seq
        database.execute("BEGIN IMMEDIATE")
        for _ in range(2):
            seq += 1
            database.execute("INSERT INTO event VALUES (?, 1, ?, ?)", (seq, seq, line))
        database.execute("INSERT INTO state VALUES ('odometer_mm', ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (seq * 10,))
        database.execute("COMMIT")
        time.sleep(1)
    return (written() - start) / seconds, (written() - start) / (seq - counted)


shared = run("shared")
exclusive = run("exclusive")
shutil.rmtree(f"{root}/shared", ignore_errors=True)
shutil.rmtree(f"{root}/exclusive", ignore_errors=True)
if not given:
    os.rmdir(root)
print(f"{seconds} s after {warmup} s of warm-up, 2 locations a commit, a commit a second: write_bytes a second "
      f"{shared[0]:.0f} with -shm on disk, {exclusive[0]:.0f} with locking_mode = EXCLUSIVE "
      f"({shared[0] - exclusive[0]:.0f} bytes a second less; a location: {shared[1]:.0f} and {exclusive[1]:.0f})")
