#!/usr/bin/env bash
# Measures how fast a network sink drains a backlog over loopback, and what it costs: the static release build
# replays a generated drive of N fixes (default 100,000) into a fresh spool (`waymark replay --spool`, which
# leaves the network sinks' events in the spool), then `waymark run` (no gpsd) delivers the backlog to the test
# suite's loopback server (Tests/Fixtures/uplink/uplink-server.py, decoding as Traccar's OsmAnd decoder and the
# batch endpoint do). Prints per sink: events delivered, seconds until the server had the last one, events a
# second, the agent's CPU microseconds per event (utime + stime of the run, start-up included), and the request
# bytes per location event as the server read them (batch: the body, compressed or not, over every event;
# Traccar: the request line, headers and body of each position).
# OwnTracks publishes to a real mosquitto on loopback; a mosquitto_sub with QoS 1 counts what arrives.
#   scripts/measure-uplink-drain.sh [FIXES] [SINKS]   SINKS: any of http http-plain (no gzip) traccar owntracks
#                                                     recorder
# `recorder` (not in the default list) is issue 37's figure: a backlog of FIXES (86400 for a day at 1 Hz) drains at
# the default drain_rate through a mosquitto with its default settings (a queue of 1,000 messages per subscriber)
# to the real OwnTracks Recorder (Tests/Tools/owntracks-recorder, built here), while a real gpsd replays the
# Regensburg drive (in 14 minutes, a location about every second) to the same agent; scripts/measure-recorder-drain.py prints the
# drain's time, the agent's CPU, and how long the live locations waited.
set -euo pipefail
cd "$(dirname "$0")/.."
fixes=${1:-100000}
sinks=${2:-"http http-plain owntracks traccar"}
export PATH="$PATH:/opt/swift/usr/bin"
waymark=$(scripts/build-release.sh)
work=$(mktemp -d)
server_pid=""
agent_pid=""
broker_pid=""
subscriber_pid=""
recorder_pids=()
cleanup() {
    for pid in "$agent_pid" "$server_pid" "$subscriber_pid" "$broker_pid" ${recorder_pids[@]+"${recorder_pids[@]}"}; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A drive of `fixes` points a second apart, 10 m apart, along a long loop: every fix a location event.
python3 - "$fixes" > "$work/drive.gpx" <<'PY'
import math, sys, datetime
n = int(sys.argv[1])
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
print('<?xml version="1.0"?><gpx version="1.1" creator="measure" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>')
for i in range(n):
    angle = i * 10 / 6_371_000 / math.cos(math.radians(49)) / 0.9
    lat = 49.0 + 0.3 * math.sin(i / 20000)
    lon = 12.0 + math.degrees(angle) % 2
    t = (start + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
    print(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{330 + (i % 50)}</ele><time>{t}</time><hdop>0.9</hdop></trkpt>')
print('</trkseg></trk></gpx>')
PY

python3 Tests/Fixtures/uplink/uplink-server.py --quiet --port-file "$work/port" --log "$work/received.jsonl" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
closed=$(free_port)
if [[ " $sinks " == *" owntracks "* ]]; then
    broker_port=$(free_port)
    printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n%s' "$broker_port" \
        "$([ "$(id -u)" -eq 0 ] && echo 'user root')" > "$work/mosquitto.conf"
    /usr/sbin/mosquitto -c "$work/mosquitto.conf" 2>/dev/null &
    broker_pid=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$broker_port") 2>/dev/null && break; sleep 0.1; done
    mosquitto_sub -h 127.0.0.1 -p "$broker_port" -q 1 -t 'owntracks/#' > "$work/received.mqtt" &
    subscriber_pid=$!
    sleep 0.5
fi

# DIR/waymark.toml: the spool and logs in DIR, no file sink, no places, and the sections given.
write_config() {
    cat > "$1/waymark.toml" <<TOML
[agent]
state_dir = "$1/state"
log_dir = "$1/logs"
runtime_dir = "$1/run"
device_id = "bench"

[spool]
max_bytes = "1GB"

[sinks.file]
enabled = false

[places]
enabled = false

$2
TOML
}

# The Recorder behind a default broker, with a live drive beside the backlog.
measure_recorder() {
    local dir="$work/recorder" port gps_port feed_port store
    mkdir -p "$dir" "$dir/store"
    local ot_recorder
    ot_recorder=$(Tests/Tools/owntracks-recorder/build-debian.sh "${TMPDIR:-/tmp}/waymark-ot-recorder-1.0.1" | tail -1)
    port=$(free_port)
    printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$port" > "$dir/mosquitto.conf"
    /usr/sbin/mosquitto -c "$dir/mosquitto.conf" 2>"$dir/mosquitto.log" &
    recorder_pids+=($!)
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    "$ot_recorder" -S "$dir/store" --initialize >/dev/null 2>&1
    "$ot_recorder" -S "$dir/store" -H 127.0.0.1 -p "$port" -A 0 --norevgeo --quiet -q 1 -i recorder 'owntracks/#' \
        2>"$dir/recorder.log" &
    recorder_pids+=($!)
    mosquitto_sub -h 127.0.0.1 -p "$port" -q 1 -t 'owntracks/+/+' -F '%U %p' > "$dir/arrivals" &
    recorder_pids+=($!)
    sleep 1
    write_config "$dir" "$(printf '[deferred]\nenabled = false\n\n[sinks.owntracks]\nenabled = true\nhost = "127.0.0.1"\nport = %s' "$port")"
    "$waymark" replay "$work/drive.gpx" --spool --config "$dir/waymark.toml" 2>/dev/null
    local last
    last=$(sqlite3 "$dir/state/spool.sqlite" 'SELECT MAX(seq) FROM event')
    # The drive, live: gpsd reads the log from socat, a sentence every LINE_PAUSE s (0.085: its 774 locations in
    # the 14 minutes of the drain, about one a second; 0.157 is the receiver's own pace).
    feed_port=$(free_port)
    gps_port=$(free_port)
    : > "$dir/feed.fifo.log"
    python3 -c '
import sys, time
for line in open(sys.argv[1], "rb"):
    sys.stdout.buffer.write(line); sys.stdout.flush(); time.sleep(float(sys.argv[2]))
sys.stdout.buffer.write(b"# EOF\n"); sys.stdout.flush(); time.sleep(5)
' Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log "${LINE_PAUSE:-0.085}" >> "$dir/feed.fifo.log" &
    recorder_pids+=($!)
    socat -u "OPEN:$dir/feed.fifo.log,ignoreeof" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" &
    recorder_pids+=($!)
    /usr/sbin/gpsd -N -b -S "$gps_port" -F "$dir/gpsd.sock" "tcp://127.0.0.1:$feed_port" 2>/dev/null &
    recorder_pids+=($!)
    sleep 1
    local started
    started=$(date +%s.%N)
    "$waymark" run --config "$dir/waymark.toml" --gpsd "127.0.0.1:$gps_port" 2>"$dir/agent.err" &
    agent_pid=$!
    # The live drive ends when gpsd says its receiver is gone.
    ( while ! grep -q 'code=no_device' "$dir/agent.err"; do sleep 1; done; touch "$dir/arrivals.done" ) &
    recorder_pids+=($!)
    python3 scripts/measure-recorder-drain.py "$waymark" "$dir/waymark.toml" "$dir/state/spool.sqlite" "$dir/store" \
        "$agent_pid" "$dir/arrivals" "$last" "$started"
    kill -INT "$agent_pid"; wait "$agent_pid" || true; agent_pid=""
    echo "broker log lines about dropped messages: $(grep -c 'dropped' "$dir/mosquitto.log" || true)"
    for pid in "${recorder_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}

printf '%-10s %9s %9s %10s %12s %14s\n' sink events seconds events/s "cpu µs/event" "wire B/location"
for sink in $sinks; do
    if [ "$sink" = recorder ]; then
        measure_recorder
        continue
    fi
    dir="$work/$sink"
    mkdir -p "$dir"
    case $sink in
        traccar) section="[sinks.traccar]"; url="http://127.0.0.1:$port/"; extra="" ;;
        http) section="[sinks.http]"; url="http://127.0.0.1:$port/batch"; extra='content_encoding = "gzip"' ;;
        http-plain) section="[sinks.http]"; url="http://127.0.0.1:$port/batch"; extra='content_encoding = "identity"' ;;
        # Unpaced: what the sink costs; the broker here queues without limit (`recorder` measures the default pace).
        owntracks) section="[sinks.owntracks]"; url=""
            extra=$(printf 'host = "127.0.0.1"\nport = %s\ndrain_rate = 0' "$broker_port") ;;
    esac
    write_config "$dir" "$section
enabled = true
$([ -n "$url" ] && echo "url = \"$url\"")
$extra"
    "$waymark" replay "$work/drive.gpx" --spool --config "$dir/waymark.toml" 2>/dev/null
    last=$(sqlite3 "$dir/state/spool.sqlite" 'SELECT MAX(seq) FROM event')
    locations=$(sqlite3 "$dir/state/spool.sqlite" 'SELECT COUNT(*) FROM event WHERE kind = 1')
    : > "$work/received.jsonl"
    [ -n "$subscriber_pid" ] && : > "$work/received.mqtt"
    started=$(date +%s.%N)
    "$waymark" run --config "$dir/waymark.toml" --gpsd "127.0.0.1:$closed" 2>"$dir/agent.err" &
    agent_pid=$!
    # Until the server holds the last event the sink sends (Traccar: the last position; OwnTracks: every location).
    if [ "$sink" = owntracks ]; then
        for _ in $(seq 6000); do [ "$(wc -l < "$work/received.mqtt")" -ge "$locations" ] && break; sleep 0.05; done
    else
    python3 - "$work/received.jsonl" "$sink" "$last" <<'PY'
import json, sys, time
path, sink, last = sys.argv[1], sys.argv[2], int(sys.argv[3])
deadline = time.time() + 600
with open(path) as log:
    highest, pending, quiet_since = 0, "", time.time()
    while time.time() < deadline and highest < last:
        pending += log.readline()
        if not pending.endswith("\n"):
            # Traccar gets no status events: its last position may come before the spool's last seq.
            if sink == "traccar" and highest and time.time() - quiet_since > 2:
                break
            time.sleep(0.02)
            continue
        quiet_since = time.time()
        record, pending = json.loads(pending), ""
        seq = record.get("event", {}).get("seq") or int(record.get("attributes", {}).get("seq", 0))
        highest = max(highest, seq)
PY
    fi
    finished=$(date +%s.%N)
    read -r utime stime < <(awk '{print $14, $15}' "/proc/$agent_pid/stat")
    kill -INT "$agent_pid"; wait "$agent_pid" || true; agent_pid=""
    python3 - "$work/received.jsonl" "$sink" "$started" "$finished" "$utime" "$stime" "$(getconf CLK_TCK)" "$locations" \
        "$work/received.mqtt" <<'PY'
import json, sys
path, sink = sys.argv[1], sys.argv[2]
started, finished, utime, stime, tck, locations = map(float, sys.argv[3:9])
events, wire, seen = 0, 0, set()
if sink == "owntracks":
    # A PUBLISH is its payload, the topic, the topic's length (2) and a packet id (2), and a fixed header of 3.
    for line in open(sys.argv[9]):
        events += 1
        wire += len(line.rstrip("\n").encode()) + len("owntracks/waymark/bench") + 7
for line in open(path):
    record = json.loads(line)
    if record["kind"] == "batch":
        events += 1
        key = (record["first_seq"], record["last_seq"])
        if key not in seen:
            seen.add(key)
            wire += record["wire_bytes"]
    elif record["kind"] == "osmand":
        events += 1
        wire += record["wire_bytes"]
seconds = finished - started
cpu = (utime + stime) / tck
per_location = f"{wire / locations:.0f}"
print(f"{sink:<10} {events:9d} {seconds:9.2f} {events / seconds:10.0f} {cpu * 1e6 / events:12.1f} {per_location:>14}")
PY
done
