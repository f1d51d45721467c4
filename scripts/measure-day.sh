#!/usr/bin/env bash
# What a board pays for a day: a vehicle driving 8 h with its receiver at 1 Hz and parked 16 h with it on.
# Measures one real drive and one real stop (Tests/waymarkTests/DayMeasurement.swift: the Regensburg car drive at
# a fix a second, then its longest stop looped, through one real gpsd; the agent as on a board, the static release
# build with its default configuration and the batch HTTP sink to a loopback backend; the C libgps loop beside it
# on the same gpsd) and scales each phase's rates to its hours: CPU seconds, wake-ups (voluntary context
# switches), bytes written to storage, location events. The agent's state and log directories are on a disk
# (/var/tmp); the test's own files, the agent's runtime directory and the events it prints for the count are on a
# tmpfs (/dev/shm), so that only what a board's card would receive is counted as written.
# Then the bytes on the air a location (scripts/measure-air-bytes.sh: TCP/IP, headers and answers, a connection a
# request as live) times the day's location events, and parked what each uplink sends in 120 s idle scaled to 16 h:
#   the batch sink   the day's own live spool delivered again (SPOOL=), as by default (content_encoding "auto":
#                    zstd, which the backend decodes) and with content_encoding = "gzip";
#   traccar, owntracks  the replayed drive (their protocols fix what a location costs; neither sends `recv`).
# Prints the table docs/performance.md shows, then the batch sink's figures on the live spool in full: zstd 19, with
# `recv = true`, and its deferral windows through each coding with each field's cost
# (scripts/measure-coding-levels.py).
#
#   scripts/measure-day.sh [WINDOW_SECONDS]      (default 300: each phase is sampled that long; about
#                                                 2 x WINDOW + 6 min in all, the agent's 5 min pause_after;
#                                                 and about 10 min for the bytes on the air)
# Environment: WAYMARK_AIR=0 leaves out the bytes on the air; DAY=FILE AIR=FILE prints the table from a run's saved
# outputs instead of measuring (the test's "phase" lines; measure-air-bytes.sh's rows with their idle lines).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
window=${1:-300}
[[ $window =~ ^[1-9][0-9]*$ ]] || { echo "measure-day: $window: expected seconds" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${DAY:-}" ]; then
    # DAY=FILE [AIR=FILE]: the table again from a run's saved outputs (the test's "phase" lines, and
    # measure-air-bytes.sh's table), without measuring.
    cp "$DAY" "$work/day.txt"
    if [ -n "${AIR:-}" ]; then cp "$AIR" "$work/air.txt"; else : >"$work/air.txt"; fi
else
    scripts/install-deps.sh --bench >/dev/null
    cc -O2 -o "$work/minimal-client" scripts/bench/minimal-client.c -lgps
    swift build --build-tests >/dev/null
    WAYMARK_BINARY=$(scripts/build-release.sh)
    # The agent's state and log directories on a disk (a board's card); the test's own files, the agent's runtime
    # directory and the events it prints for the count on a tmpfs (a board's /run, or not written at all).
    state=$(mktemp -d /var/tmp/waymark-day.XXXXXX)
    trap 'rm -rf "$work" "$state"' EXIT
    export WAYMARK_BINARY WAYMARK_MEASURE_DAY=1 WAYMARK_WINDOW=$window WAYMARK_PEER=$work/minimal-client
    WAYMARK_DAY_DIR=$state TMPDIR=/dev/shm swift test --skip-build --filter DayMeasurement 2>&1 |
        tee "$work/day.txt" | grep -E "^phase|^backend|✘" >&2
    # The bytes on the air (WAYMARK_AIR=0: none). A failure there leaves the table without those rows, not without
    # the rest. The batch sink's rows: the day's spool delivered again, as the sink goes by default (without
    # `recv`), then idle for 120 s; beside them, zstd 19, `recv = true`, and the deferral windows through each coding
    # and level with what each field of a location line costs in them.
    spool=$state/state/spool.sqlite
    : >"$work/air.txt"
    if [ "${WAYMARK_AIR:-1}" != 0 ] && [ -f "$spool" ]; then
        SPOOL=$spool LEVELS=0 IDLE=120 scripts/measure-air-bytes.sh 1 "http http-gzip" >"$work/air.txt" ||
            echo "measure-day: the batch sink's bytes on the air were not measured" >&2
        {
            echo "The day's live spool, delivered by the batch sink (without recv, the default):"
            cat "$work/air.txt"
            SPOOL=$spool LEVELS=0 scripts/measure-air-bytes.sh 1 "http-zstd-19" | tail -n +2
            echo "The same with recv = true:"
            SPOOL=$spool LEVELS=0 HTTP_SETTINGS="recv = true" scripts/measure-air-bytes.sh 1 "http-gzip http-zstd"
            echo
            echo "Its deferral windows coded, without recv:"
            python3 scripts/measure-coding-levels.py "$spool" 3
            echo "With recv:"
            python3 scripts/measure-coding-levels.py --recv "$spool" 3
            python3 scripts/measure-coding-levels.py --recv --fields "$spool"
        } >"$work/bodies.txt" || echo "measure-day: the batch sink's other figures were not all measured" >&2
    fi
    # Traccar's and OwnTracks' bytes a location are fixed by their protocols, not by the events' lines: the
    # replayed drive's (the same events and windows, without `recv`, which neither sends).
    if [ "${WAYMARK_AIR:-1}" != 0 ]; then
        LEVELS=0 IDLE=120 scripts/measure-air-bytes.sh 1 "traccar owntracks" | tail -n +2 >>"$work/air.txt" ||
            echo "measure-day: Traccar's and OwnTracks' bytes on the air were not measured" >&2
    fi
fi
grep -q "^phase parked" "$work/day.txt" || { echo "measure-day: the measurement did not finish" >&2; exit 1; }

python3 - "$work/day.txt" "$work/air.txt" <<'PYTHON'
import re, sys

phases = {}
for line in open(sys.argv[1]):
    if line.startswith("phase "):
        name, rest = line.split(None, 2)[1:]
        phases[name] = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.eE+-]+)", rest)}
hours = {"driving": 8, "parked": 16}

def day(phase, field):
    p = phases[phase]
    return p[field] / p["seconds"] * hours[phase] * 3600

def row(label, field, scale=1.0, digits=0):
    cells = [day(phase, field) / scale for phase in hours]
    peer = sum(day(phase, "peer_" + field) for phase in hours) / scale if "peer_" + field in phases["driving"] else None
    text = f"| {label} | " + " | ".join(f"{c:,.{digits}f}" for c in cells) + f" | **{sum(cells):,.{digits}f}** |"
    return text + (f" {peer:,.{digits}f} |" if peer is not None else " |")

d, p = phases["driving"], phases["parked"]
print(f"Measured: {d['seconds']:.0f} s of driving ({d['epochs']:.0f} receiver epochs, {d['locations']:.0f} location "
      f"events) and {p['seconds']:.0f} s parked after the pause ({p['epochs']:.0f} epochs); scaled to 8 h and 16 h.")
print()
print("| a day | driving 8 h | parked 16 h | the day | the C libgps loop, the day |")
print("|---|---:|---:|---:|---:|")
print(row("CPU seconds", "cpu", digits=1))
print(row("wake-ups (voluntary context switches)", "wakeups"))
print(row("MB written to storage", "written", scale=1e6, digits=1))
print(row("location events", "locations"))
events = {phase: day(phase, "locations") for phase in hours}
# scripts/measure-air-bytes.sh's rows (uplink, locations, requests, app, ip and live bytes per location, ...), each
# followed by "  idle 120 s after the drain: P IP packets, B bytes": what it sends parked, scaled to 16 h.
uplinks = []
for line in open(sys.argv[2]):
    fields = line.split()
    if not fields or fields[0] == "uplink":
        continue
    if fields[0] == "idle" and uplinks:
        uplinks[-1][2:] = [float(fields[1]), float(fields[-2])]
    elif len(fields) >= 6 and fields[1].isdigit():
        uplinks.append([fields[0], float(fields[5]), None, 0.0])
for uplink, per_event, seconds, idle_bytes in uplinks:
    if seconds is None:
        print(f"measure-day: {uplink}: left out, its idle was not measured", file=sys.stderr)
        continue
    driving = per_event * events["driving"] / 1e6
    parked = (per_event * events["parked"] + idle_bytes / seconds * hours["parked"] * 3600) / 1e6
    print(f"| MB on the air, {uplink} ({per_event:.1f} bytes a location) | {driving:,.2f} | {parked:,.2f} | "
          f"**{driving + parked:,.2f}** | |")
PYTHON
if [ -s "$work/bodies.txt" ]; then echo; cat "$work/bodies.txt"; fi
