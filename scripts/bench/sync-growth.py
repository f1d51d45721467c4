#!/usr/bin/env python3
"""What a commit's fdatasync costs in voluntary context switches when the file it appends to grows (the spool's WAL
for its first 4 MB after each start) against one overwritten in place (a WAL already at its size): 200 writes of
2,822 bytes (a commit's frames at 1 Hz) each followed by fdatasync, 20 ms apart, in a 4 MB file zero-filled first
or in a new empty one, under /var/tmp. Prints the switches a sync beyond the sleeps', twice.

    scripts/bench/sync-growth.py
"""
import os
import resource
import tempfile
import time

COMMITS, FRAMES = 200, 2822


def switches(preallocated, directory):
    path = f"{directory}/wal"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
    if preallocated:
        os.write(descriptor, b"\0" * (4 << 20))
        os.fsync(descriptor)
    time.sleep(1)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw
    for commit in range(COMMITS):
        os.pwrite(descriptor, b"x" * FRAMES, commit * FRAMES)
        os.fdatasync(descriptor)
        time.sleep(0.02)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw
    os.close(descriptor)
    os.remove(path)
    return (after - before - COMMITS) / COMMITS


with tempfile.TemporaryDirectory(prefix="waymark-sync.", dir="/var/tmp") as directory:
    for _ in range(2):
        print(f"switches a sync: growing {switches(False, directory):.2f}, "
              f"overwritten in place {switches(True, directory):.2f}")
