#!/usr/bin/env bash
# Issue 39's scaled acceptance (docs/fleet.md, docs/performance.md "Commands to the fleet"): N agents (bus-000 …)
# on one machine, each with its own state_dir and device_id, on one real gpsd and one real mosquitto, with
# [fleet] accept = ["setWaypoints", …]:
#   1. `waymark fleet status` lists N boards online;
#   2. `waymark fleet send 'bus-*' setWaypoints regions.json` → N ok, its wall time measured;
#   3. bus-000 killed (SIGKILL) shows offline; `fleet send bus-000 clearWaypoints` to it is queued, and applied when
#      it starts again.
#
#   scripts/measure-fleet-send.sh [N]        (default 100; WAYMARK_BINARY picks the binary, default the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-100}"
BIN="${WAYMARK_BINARY:-$PWD/.build/debug/waymark}"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

MQTT="$(free_port)"
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n' "$MQTT" >"$WORK/mosquitto.conf"
/usr/sbin/mosquitto -c "$WORK/mosquitto.conf" >"$WORK/mosquitto.log" 2>&1 &
PIDS+=($!)
wait_port "$MQTT"

# One gpsd for all, fed the Regensburg drive once (the tests' whole-log recipe, Tests/WaymarkTestSupport/GPSDTestServer.swift:
# socat serves the log, gpsd reads it from a TCP source); the boards need no fix here.
FEED="$(free_port)"
GPSD="$(free_port)"
cp Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log "$WORK/feed.log"
socat -u "OPEN:$WORK/feed.log" "TCP-LISTEN:$FEED,bind=127.0.0.1,reuseaddr" &
PIDS+=($!)
/usr/sbin/gpsd -N -b -S "$GPSD" -F "$WORK/ctl.sock" "tcp://127.0.0.1:$FEED" >"$WORK/gpsd.log" 2>&1 &
PIDS+=($!)
wait_port "$GPSD"

launched=$(date +%s.%N)
for i in $(seq 0 $((N - 1))); do
    device="$(printf 'bus-%03d' "$i")"
    dir="$WORK/$device"
    mkdir -p "$dir/logs" "$dir/run"
    cat >"$dir/waymark.toml" <<TOML
[agent]
device_id = "$device"
state_dir = "$dir"
log_dir = "$dir/logs"
runtime_dir = "$dir/run"
[places]
enabled = false
[gpsd]
host = "127.0.0.1"
port = $GPSD
[sinks.file]
enabled = false
[sinks.owntracks]
enabled = false
host = "127.0.0.1"
port = $MQTT
keepalive = "60s"
[fleet]
enabled = true
accept = ["setWaypoints", "clearWaypoints", "waypoints"]
TOML
    "$BIN" run --config "$dir/waymark.toml" >"$dir/stdout" 2>"$dir/stderr" &
    PIDS+=($!)
    [ "$i" -eq 0 ] && FIRST=$!
done

start=$(date +%s.%N)
online=0
for _ in $(seq 240); do
    online="$("$BIN" fleet status --broker "127.0.0.1:$MQTT" --json --settle 300ms 2>/dev/null \
        | python3 -c 'import json,sys; print(sum(1 for b in json.load(sys.stdin) if b["online"]))' || echo 0)"
    [ "$online" -ge "$N" ] && break
    sleep 0.5
done
now=$(date +%s.%N)
echo "fleet status: $online of $N boards online ($(python3 -c "print(round($now - $launched, 1))") s after the first \
start, $(python3 -c "print(round($now - $start, 1))") s after the last)"

cat >"$WORK/regions.json" <<'JSON'
{"_type":"waypoints","waypoints":[
 {"_type":"waypoint","desc":"Depot","lat":49.0134,"lon":12.1016,"rad":200,"tst":1700000000,"rid":"depot"},
 {"_type":"waypoint","desc":"Yard","lat":49.0201,"lon":12.0952,"rad":120,"tst":1700000001,"rid":"yard"}]}
JSON
start=$(date +%s.%N)
set +e
"$BIN" fleet send 'bus-*' setWaypoints "$WORK/regions.json" --broker "127.0.0.1:$MQTT" --settle 300ms \
    --timeout 30s --json >"$WORK/send.json"
status=$?
set -e
elapsed="$(python3 -c "print(round($(date +%s.%N) - $start, 2))")"
ok="$(python3 -c 'import json,sys; print(sum(1 for b in json.load(open(sys.argv[1])) if b["ok"]))' "$WORK/send.json")"
echo "fleet send 'bus-*' setWaypoints: $ok of $N ok in $elapsed s (exit $status; the status's --settle 300ms included)"
written=0
for i in $(seq 0 $((N - 1))); do
    [ -s "$WORK/$(printf 'bus-%03d' "$i")/fleet-regions.geojson" ] && written=$((written + 1))
done
sleep 1
loaded="$(grep -l 'fleet-regions.geojson: 2 remote regions loaded' "$WORK"/bus-*/stderr | wc -l)"
echo "remote region files written: $written of $N; monitored (the agent's log says so): $loaded of $N"

kill -KILL "$FIRST"
for _ in $(seq 40); do
    "$BIN" fleet status --broker "127.0.0.1:$MQTT" --json --settle 300ms 2>/dev/null \
        | grep -q '"device":"bus-000","topic":"[^"]*","online":false' && break
    sleep 0.25
done
set +e
queued="$("$BIN" fleet send bus-000 clearWaypoints --broker "127.0.0.1:$MQTT" --settle 300ms --timeout 1s)"
set -e
echo "bus-000 killed, then: $queued"
"$BIN" run --config "$WORK/bus-000/waymark.toml" >>"$WORK/bus-000/stdout" 2>>"$WORK/bus-000/stderr" &
PIDS+=($!)
for _ in $(seq 40); do [ -e "$WORK/bus-000/fleet-regions.geojson" ] || break; sleep 0.25; done
if [ -e "$WORK/bus-000/fleet-regions.geojson" ]; then
    echo "bus-000 restarted: the queued clearWaypoints was NOT applied"
else
    echo "bus-000 restarted: the queued clearWaypoints was applied (its remote regions are gone)"
fi
