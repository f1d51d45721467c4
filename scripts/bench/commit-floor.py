#!/usr/bin/env python3
"""The floors of scripts/measure-live-wear.sh: what a program that makes nothing but durable commits of a line a
second costs, in write_bytes and at the device.

    scripts/bench/commit-floor.py DIRECTORY DEVICE WINDOW [PERIOD] [SIZE] [WARM_UP]

In DIRECTORY (a file system of its own on block device DEVICE, e.g. loop3) it writes a 4 MB file and syncs it, so
that no commit grows it; then every PERIOD seconds (default 1) it writes PERIOD lines of SIZE bytes (default 300:
one location event's line) after the last, in place, and syncs them with fdatasync: with PERIOD 1, a program that
commits each fix of a 1 Hz receiver as it comes; with PERIOD 2, one that commits two fixes at a time, as the agent
does at 1 Hz with its commit_interval of 1 s. After WARM_UP seconds (default 20) it counts, over WINDOW seconds, its
own write_bytes (/proc/self/io) and every byte the block layer sent to DEVICE (/sys/block/DEVICE/stat: the file
system's journal and inodes too), and prints them as one line: `floor seconds=W lines=N commits=N written=B
device=B`.
"""
import os
import sys
import time

directory, device, window = sys.argv[1], sys.argv[2], int(sys.argv[3])
period = int(sys.argv[4]) if len(sys.argv) > 4 else 1
size = int(sys.argv[5]) if len(sys.argv) > 5 else 300
warm_up = int(sys.argv[6]) if len(sys.argv) > 6 else 20


def written():
    with open("/proc/self/io") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("write_bytes:"))


def device_bytes():
    with open(f"/sys/block/{device}/stat") as stat:
        return int(stat.read().split()[6]) * 512


descriptor = os.open(os.path.join(directory, "floor"), os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
# Written a page at a time: a kernel with large folios (6.18 here) would otherwise keep the file in folios of up to
# 2 MB and count a whole one as written each time a commit dirties it, where a board's kernel counts a 4 KB page.
for _ in range(1024):
    os.write(descriptor, b"\0" * 4096)
os.fsync(descriptor)
commit = (b"x" * (size - 1) + b"\n") * period
start, offset, commits, before = time.monotonic(), 0, 0, None
for second in range(0, warm_up + window, period):
    if before is None and second >= warm_up:
        before = (written(), device_bytes())
    if offset + len(commit) > 4 << 20:
        offset = 0
    os.pwrite(descriptor, commit, offset)
    os.fdatasync(descriptor)
    offset += len(commit)
    commits += before is not None
    time.sleep(max(0.0, start + second + period - time.monotonic()))
print(f"floor seconds={commits * period} lines={commits * period} commits={commits} written={written() - before[0]} "
      f"device={device_bytes() - before[1]}")
