#!/usr/bin/env bash
# What rate the OwnTracks Recorder keeps up with behind a mosquitto with its default settings (issue 37): publishes
# N location messages with QoS 1 at RATE a second (0: as fast as mosquitto_pub goes) to a broker with only its
# listener set (max_queued_messages 1000 applies), and counts what the Recorder (Tests/Tools/owntracks-recorder,
# built here) stored once nothing more comes. EXTRA adds broker settings (EXTRA='max_queued_messages 0' measures
# the Recorder's own speed, with nothing dropped).
#   scripts/measure-recorder-rate.sh [N] [RATE...]      e.g. 10000 0 1000 500 200 100
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
shift || true
rates=("${@:-0 500 200 100}")
recorder=$(Tests/Tools/owntracks-recorder/build-debian.sh "${TMPDIR:-/tmp}/waymark-ot-recorder-1.0.1" | tail -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
printf '%8s %8s %8s %10s %12s\n' messages rate stored seconds "recorder cpu"
for rate in ${rates[*]}; do
    work=$(mktemp -d)
    port=$(free_port)
    printf 'listener %s 127.0.0.1\nallow_anonymous true\n%b\n' "$port" "${EXTRA:-}" > "$work/mosquitto.conf"
    /usr/sbin/mosquitto -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
    broker=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    mkdir -p "$work/store"
    "$recorder" -S "$work/store" --initialize > /dev/null 2>&1
    "$recorder" -S "$work/store" -H 127.0.0.1 -p "$port" -A 0 --norevgeo --quiet -q 1 -i recorder 'owntracks/#' \
        > "$work/recorder.log" 2>&1 &
    consumer=$!
    sleep 1
    started=$(date +%s.%N)
    python3 - "$n" "$rate" <<'PY' | mosquitto_pub -h 127.0.0.1 -p "$port" -q 1 -t owntracks/u/d -l
import sys, time
n, rate = int(sys.argv[1]), float(sys.argv[2])
t0 = time.time()
for i in range(n):
    if rate > 0 and t0 + i / rate > time.time():
        time.sleep(t0 + i / rate - time.time())
    print('{"_type":"location","lat":49.%07d,"lon":12.0,"tst":%d,"acc":5,"tid":"d","t":"t","inregions":[],"seq":%d}'
          % (i, 1700000000 + i, i + 1), flush=True)
PY
    stored=0 previous=-1 quiet=0
    while [ "$stored" -lt "$n" ] && [ "$quiet" -lt 10 ]; do
        sleep 0.5
        stored=$(cat "$work"/store/rec/u/d/*.rec 2>/dev/null | wc -l)
        if [ "$stored" = "$previous" ]; then quiet=$((quiet + 1)); else quiet=0; fi
        previous=$stored
    done
    seconds=$(python3 -c "import time; print(f'{time.time() - $started - (5 if $stored < $n else 0):.1f}')")
    cpu=$(awk -v t="$(getconf CLK_TCK)" '{printf "%.2f s", ($14 + $15) / t}' "/proc/$consumer/stat")
    printf '%8s %8s %8s %10s %12s\n' "$n" "$rate" "$stored" "$seconds" "$cpu"
    kill "$consumer" "$broker"; wait "$consumer" "$broker" 2>/dev/null || true
    rm -rf "$work"
done
