#!/usr/bin/env python3
"""The floor of one durable commit a second, for scripts/measure-live-wear.sh: what a program that makes nothing but
that costs, in write_bytes and at the device.

    scripts/bench/commit-floor.py DIRECTORY DEVICE WINDOW [SIZE] [WARM_UP]

In DIRECTORY (a file system of its own on block device DEVICE, e.g. loop3) it writes a 4 MB file and syncs it, so
that no commit grows it; then each second it writes SIZE bytes (default 300: one location event's line) after the
last, in place, and syncs them with fdatasync, as a spool that commits each fix alone would. After WARM_UP seconds
(default 20) it counts, over WINDOW seconds, its own write_bytes (/proc/self/io) and every byte the block layer sent
to DEVICE (/sys/block/DEVICE/stat: the file system's journal and inodes too), and prints them as one line:
`floor seconds=W commits=N written=B device=B`.
"""
import os
import sys
import time

directory, device, window = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = int(sys.argv[4]) if len(sys.argv) > 4 else 300
warm_up = int(sys.argv[5]) if len(sys.argv) > 5 else 20


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
line = b"x" * (size - 1) + b"\n"
start, offset, commits, before = time.monotonic(), 0, 0, None
for second in range(warm_up + window):
    if second == warm_up:
        before = (written(), device_bytes())
    os.pwrite(descriptor, line, offset)
    os.fdatasync(descriptor)
    offset = (offset + size) % (4 << 20)
    commits += second >= warm_up
    time.sleep(max(0.0, start + second + 1 - time.monotonic()))
print(f"floor seconds={window} commits={commits} written={written() - before[0]} "
      f"device={device_bytes() - before[1]}")
