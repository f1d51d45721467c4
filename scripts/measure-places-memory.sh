#!/usr/bin/env bash
# What [places] costs the running agent: anonymous and file-backed RSS of `waymark run` (connecting to a
# gpsd that is not there, so it only retries) and of `waymark replay --speed 60` of the Regensburg drive
# with pause_after = "30s" (its trips and pauses named, 26 minutes in 26 s), with places on and off.
# /proc/PID/smaps_rollup is read ROUNDS times (default 3) per case; the medians are printed, in kB. With
# ADDRESSES=FILE, a third case: places on with [places] addresses = FILE (an address file).
#   [ADDRESSES=FILE] scripts/measure-places-memory.sh [ROUNDS]
# Needs .build-release/waymark (scripts/build-release.sh) and builds the gazetteer into .build/places.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
waymark=.build-release/waymark
[ -x "$waymark" ] || { echo "build it first: scripts/build-release.sh" >&2; exit 1; }
places=.build/places/places.bin
[ -f "$places" ] || WAYMARK=$waymark scripts/build-places.sh "$places" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cases="false true"
[ -z "${ADDRESSES:-}" ] || cases="$cases addresses"
for enabled in $cases; do
    on=$([ "$enabled" = false ] && echo false || echo true)
    cat > "$work/$enabled.toml" <<TOML
[agent]
state_dir = "$work/state-$enabled"
log_dir = "$work/log-$enabled"
[gpsd]
host = "127.0.0.1"
port = $port
[activity]
pause_after = "30s"
[places]
enabled = $on
file = "$(pwd)/$places"
TOML
    [ "$enabled" != addresses ] || echo "addresses = \"$(realpath "$ADDRESSES")\"" >> "$work/$enabled.toml"
done
# Prints "anonymous rss" (kB) of PID after SECONDS.
sample() {
    sleep "$2"
    awk '/^Anonymous:/ {a=$2} /^Rss:/ {r=$2} END {print a, r}' "/proc/$1/smaps_rollup"
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for mode in run replay; do
    for enabled in $cases; do
        : > "$work/anon" ; : > "$work/rss"
        for _ in $(seq "$rounds"); do
            if [ "$mode" = run ]; then
                "$waymark" run --config "$work/$enabled.toml" --log-level error > /dev/null 2>&1 &
                delay=3
            else
                "$waymark" replay Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk --speed 60 \
                    --config "$work/$enabled.toml" --log-level error > /dev/null 2>&1 &
                delay=24
            fi
            pid=$!
            read -r anon rss < <(sample "$pid" "$delay")
            kill "$pid"; wait "$pid" 2>/dev/null || true
            echo "$anon" >> "$work/anon"; echo "$rss" >> "$work/rss"
        done
        echo "$mode places=$enabled: anonymous $(median < "$work/anon") kB, rss $(median < "$work/rss") kB (median of $rounds)"
    done
done
