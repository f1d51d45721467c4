#!/usr/bin/python3
"""Writes a feed to stdout at RATE lines a second, in slices every 10 ms, as a receiver does (gpsd reads it through
socat): for scripts/bench-live.sh -x and scripts/bench/callgrind-live.sh.

    pace-feed.py RATE FEED
"""
import sys
import time

rate, path = float(sys.argv[1]), sys.argv[2]
lines = open(path, "rb").readlines()
start = time.monotonic()
index = 0
while index < len(lines):
    due = int((time.monotonic() - start) * rate) + 1
    if due > index:
        sys.stdout.buffer.write(b"".join(lines[index:due]))
        sys.stdout.buffer.flush()
        index = due
    time.sleep(0.01)
