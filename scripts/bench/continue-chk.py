#!/usr/bin/env python3
"""Writes gpsd's JSON of a drive (a `.chk`) COPIES times in a row, copy k moved in time by k spans of the drive (its
first to last "time" plus a minute), for `waymark replay`: the copies from FIRST on, so FIRST = -20 writes 20 copies
that all come before the drive itself. CUT, when above 0, first keeps only the lines up to the first whose time is
more than CUT seconds after the drive's first time (the span is then the cut drive's).

    continue-chk.py DRIVE.chk COPIES [FIRST] [CUT] > OUT.chk

Used by scripts/measure-spool-wear.sh, scripts/measure-card-wear.sh and scripts/bench-live.sh -s.
"""
import datetime
import re
import sys

source, copies = sys.argv[1], int(sys.argv[2])
first_copy = int(sys.argv[3]) if len(sys.argv) > 3 else 0
cut = float(sys.argv[4]) if len(sys.argv) > 4 else 0
lines = open(source).read().splitlines()
pattern = re.compile(r'"time":"([0-9T:.-]+)Z"')
stamps = [datetime.datetime.fromisoformat(m.group(1)) if m else None for m in map(pattern.search, lines)]
if cut > 0:
    first = next(t for t in stamps if t)
    lines = lines[:next((i for i, t in enumerate(stamps) if t and (t - first).total_seconds() > cut), len(lines))]
times = [datetime.datetime.fromisoformat(m.group(1)) for line in lines for m in [pattern.search(line)] if m]
span = max(times) - min(times) + datetime.timedelta(minutes=1)
for copy in range(first_copy, first_copy + copies):
    def moved(m):
        t = datetime.datetime.fromisoformat(m.group(1)) + span * copy
        return '"time":"%s.%03dZ"' % (t.strftime("%Y-%m-%dT%H:%M:%S"), t.microsecond // 1000)
    sys.stdout.writelines(pattern.sub(moved, line) + "\n" for line in lines)
