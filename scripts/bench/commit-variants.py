#!/usr/bin/env python3
"""Ways a spool commit could be laid out, and what each writes to storage: the spool's commit pattern at 1 Hz
(WAL, synchronous = FULL, a commit a second of two location rows of 290 bytes and the odometer) written by Python's
sqlite3 in six variants side by side, each in a process of its own, so that /proc/self/io write_bytes is its own:

    1024 state     1 KB pages, the odometer in the `state` table's page (the spool before schema 3)
    1024 row       1 KB pages, the odometer in the last row's `odometer` column (the spool now)
    512 state      512-byte pages, the odometer in `state`
    512 row        512-byte pages, the odometer in the row
    1024 row psow0 as `1024 row`, with SQLite told the storage may tear a sector (`psow=0`): SQLite then pads
                   each commit to a 4 KB boundary of the WAL with copies of its last frame
    1024 row excl  as `1024 row`, with `locking_mode = EXCLUSIVE`: the WAL index on the heap, no `-shm` on disk
                   (and no other process can read the database); against `1024 row`, what the `-shm` costs: the
                   kernel writes the map's dirty pages back about every 30 s (vm.dirty_expire_centisecs),
                   whatever the process syncs

Each counts after WARMUP commits (past the `-shm`'s creation, whose one-byte writes into each of its pages count
once, and a first write-back) and prints its bytes a second and a location. The WAL index (`-shm`) is on disk in
all but the last, as the agent keeps it.

    scripts/bench/commit-variants.py [SECONDS] [WARMUP]   (default 240 s after 40 s, all at once)
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

LINE = (b'{"type":"location","seq":21,"time":"2029-11-25T16:58:20.000Z","device":"vm","lat":49.025453333,'
        b'"lon":12.064743333,"alt_hae":386.9,"alt_msl":340.3,"h_acc":28.5,"v_acc":57.5,"speed":10.186,'
        b'"speed_acc":23.25,"course":181.3,"course_acc":66.7605,"mode":3}')
VARIANTS = [("1024", "state", "1", ""), ("1024", "row", "1", ""), ("512", "state", "1", ""),
            ("512", "row", "1", ""), ("1024", "row", "0", ""), ("1024", "row", "1", "excl")]


def written():
    with open("/proc/self/io") as io:
        return next(int(entry.split()[1]) for entry in io if entry.startswith("write_bytes"))


def variant(page, odometer, psow, locking, seconds, warmup, directory):
    database = sqlite3.connect(f"file:{directory}/spool.sqlite?psow={psow}", isolation_level=None, uri=True)
    database.execute(f"PRAGMA page_size = {page}")
    if locking == "excl":
        database.execute("PRAGMA locking_mode = EXCLUSIVE")
    database.execute("PRAGMA journal_mode = WAL")
    database.execute("PRAGMA synchronous = FULL")
    database.execute("CREATE TABLE event (seq INTEGER PRIMARY KEY, kind INTEGER, time INTEGER, line BLOB, "
                     "odometer INTEGER)")
    database.execute("CREATE TABLE state (key TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID")
    database.execute("INSERT INTO state VALUES ('window_start', 1)")
    start, seq, counted = 0, 0, 0
    for second in range(warmup + seconds):
        if second == warmup:
            start, counted = written(), seq
        database.execute("BEGIN IMMEDIATE")
        for row in range(2):
            seq += 1
            carried = seq * 10 if odometer == "row" and row == 1 else None
            database.execute("INSERT INTO event VALUES (?, 1, ?, ?, ?)", (seq, seq, LINE, carried))
        if odometer == "state":
            database.execute("INSERT INTO state VALUES ('odometer_mm', ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (seq * 10,))
        database.execute("COMMIT")
        time.sleep(1)
    bytes_ = written() - start
    name = f"{page} {odometer}" + (" psow0" if psow == "0" else "") + (" excl" if locking else "")
    # One write a line: the five processes share the output.
    os.write(1, f"{name:15} {bytes_ / seconds:6.0f} bytes a second, {bytes_ / (seq - counted):5.0f} a location\n".encode())


if len(sys.argv) > 1 and sys.argv[1] == "--variant":
    variant(*sys.argv[2:6], int(sys.argv[6]), int(sys.argv[7]), sys.argv[8])
    sys.exit(0)
seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 240
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 40
root = tempfile.mkdtemp(prefix="waymark-variants.", dir="/var/tmp")
try:
    runs = []
    for page, odometer, psow, locking in VARIANTS:
        directory = f"{root}/{page}-{odometer}-{psow}-{locking}"
        os.makedirs(directory)
        runs.append(subprocess.Popen([sys.executable, __file__, "--variant", page, odometer, psow, locking,
                                      str(seconds), str(warmup), directory]))
    print(f"{seconds} s after {warmup} s of warm-up, a commit a second of 2 locations, six variants at once:", flush=True)
    sys.exit(max(run.wait() for run in runs))
finally:
    shutil.rmtree(root, ignore_errors=True)
