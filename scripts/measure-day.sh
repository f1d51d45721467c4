#!/usr/bin/env bash
# What a board pays for a day: a vehicle driving 8 h with its receiver at 1 Hz and parked 16 h with it on.
# Measures one real drive and one real stop (Tests/waymarkTests/DayMeasurement.swift: the Regensburg car drive at
# a fix a second, then its longest stop looped, through one real gpsd; the agent as on a board, the static release
# build with its default configuration and the batch HTTP sink to a loopback backend; the C libgps loop beside it
# on the same gpsd) and scales each phase's rates to its hours: CPU seconds, wake-ups (voluntary context
# switches), bytes written to storage, location events, and bytes on the air per uplink from
# scripts/measure-air-bytes.sh (per location event with TCP/IP, headers and answers, times the day's events; and
# parked, what each uplink sends over 120 s idle: MQTT's keep-alive, scaled to 16 h).
# Prints the table docs/performance.md shows, then what the batch sink sends of the day's live events: the agent's
# spool delivered again (scripts/measure-air-bytes.sh with SPOOL=), with and without `recv`, and its deferral windows
# through each coding with each field's cost (scripts/measure-coding-levels.py). The agent's state and log directories are on a disk (/var/tmp); the test's own files, the agent's runtime
# directory and the events it prints for the count are on a tmpfs (/dev/shm), so that only what a board's card would
# receive is counted as written.
#
#   scripts/measure-day.sh [WINDOW_SECONDS]      (default 300: each phase is sampled that long; about
#                                                 2 x WINDOW + 6 min in all, the agent's 5 min pause_after;
#                                                 and about 15 min for the bytes on the air)
# Environment: WAYMARK_AIR=0 leaves out the bytes on the air; DAY=FILE AIR=FILE prints the table from a run's saved
# outputs instead of measuring.
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
    # What the batch sink sends of these live events: the day's spool delivered again by the batch sink, on the
    # air with headers and TCP/IP, as it goes by default (without `recv`) and with `recv = true`; then its deferral
    # windows through each coding and level, and what each field of a location line costs in them.
    spool=$state/state/spool.sqlite
    if [ -f "$spool" ]; then
        {
            echo "The day's live spool, delivered by the batch sink (without recv, the default):"
            SPOOL=$spool LEVELS=0 scripts/measure-air-bytes.sh 1 "http-gzip http-zstd http-zstd-19"
            echo "The same with recv = true:"
            SPOOL=$spool LEVELS=0 HTTP_SETTINGS="recv = true" scripts/measure-air-bytes.sh 1 "http-gzip http-zstd"
            echo
            echo "Its deferral windows coded, without recv:"
            python3 scripts/measure-coding-levels.py "$spool" 3
            echo "With recv:"
            python3 scripts/measure-coding-levels.py --recv "$spool" 3
            python3 scripts/measure-coding-levels.py --recv --fields "$spool"
        } >"$work/bodies.txt"
    fi
    : >"$work/air.txt"
    if [ "${WAYMARK_AIR:-1}" != 0 ]; then
        LEVELS=0 IDLE=120 scripts/measure-air-bytes.sh 1 "http-gzip http-zstd traccar owntracks" >"$work/air.txt"
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
# scripts/measure-air-bytes.sh: a row per uplink (uplink, locations, requests, app, ip and live bytes per
# location, ...), then "  idle 120 s after the drain: P IP packets, B bytes".
uplink = None
for line in open(sys.argv[2]):
    fields = line.split()
    if fields[:1] == ["uplink"] or not fields:
        continue
    if fields[0] != "idle" and len(fields) >= 6 and fields[1].isdigit():
        uplink, per_event = fields[0], float(fields[5])
    elif uplink and fields[0] == "idle":
        seconds, idle_bytes = float(fields[1]), float(fields[-2])
        driving = per_event * events["driving"] / 1e6
        parked = (per_event * events["parked"] + idle_bytes / seconds * hours["parked"] * 3600) / 1e6
        print(f"| MB on the air, {uplink} ({per_event:.1f} bytes a location) | {driving:,.2f} | {parked:,.2f} | "
              f"**{driving + parked:,.2f}** | |")
        uplink = None
PYTHON
if [ -s "$work/bodies.txt" ]; then echo; cat "$work/bodies.txt"; fi
