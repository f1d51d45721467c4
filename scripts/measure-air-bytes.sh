#!/usr/bin/env bash
# Bytes on the air per location for each uplink, headers, answers and TCP/IP included (issue 44). A real receiver
# drive (default: the Regensburg drive, Tests/Fixtures/gpsd-logs, COPIES times in a row by
# scripts/bench/continue-log.py: 4 copies, 104 minutes, 3,096 locations) is replayed with the default configuration
# and one network sink into a fresh spool (`waymark replay --spool`: the same events and deferral windows as live,
# without `recv`); then the static release build (`waymark run`, no gpsd) delivers it, in a network namespace of its
# own whose loopback has a 1,500-byte MTU and no segmentation offload (every TCP segment at most 1,448 bytes, as on
# a cellular link), to the test suite's server (Tests/Fixtures/uplink/uplink-server.py: Traccar's OsmAnd decoding,
# the batch endpoint decoding gzip and zstd with standard tools) or to a real mosquitto. tcpdump captures the sink's
# port, and the table gives per location event of the drive:
#   app B/loc     the bytes TCP carried, both ways: HTTP request lines, headers, bodies and answers; MQTT packets
#                 (CONNECT, PUBLISH, PUBACK, ... : every byte the broker and the agent exchanged)
#   ip B/loc      every IP packet of the capture, both ways: IPv4 and TCP headers (20 + 32 with timestamps),
#                 handshakes and ACKs, as the connections went (one kept alive through the drain)
#   live B/loc    ip, plus for the batch sink one TCP connection opened and closed per request, as live: its
#                 requests come one deferral window (5 minutes) apart, beyond libcurl's 118 s reuse of an idle
#                 connection (SYN, SYN-ACK, ACK, FIN, FIN, ACK as this capture measured them)
#   8h day        live B/loc × 28,800: a day of 8 hours at one location a second
#   cpu µs/loc    the agent's CPU (user + system) through the drain, start-up included, per location
# Then scripts/measure-coding-levels.py prints, on the first batch uplink's spool, each coding and level's body bytes
# and CPU per location (the agent's libraries and calls, timed apart from the rest); LEVELS=0 leaves that out, for a
# script that reads only the first table.
# Not counted: TLS (an https endpoint adds its handshake per connection and about 22-29 bytes per record), the
# link layer below IP, DNS. A drive at one fix a second would have more locations per window than Regensburg's
# one every 2 s.
#   scripts/measure-air-bytes.sh [COPIES] [UPLINKS]
#   UPLINKS: any of http http-gzip http-zstd http-identity http-zstd-LEVEL http-gzip-LEVEL traccar owntracks
#            (default: http-gzip http-zstd traccar owntracks; http is the batch sink's defaults, content_encoding
#            "auto": zstd to this server, which decodes it)
#   SPOOL=FILE delivers that spool (one the agent filled live: scripts/measure-day.sh's) instead of a replay's, its
#   locations counted through its last closed window; HTTP_SETTINGS='recv = true' adds lines to [sinks.http];
#   DEFERRED='timeout = "10m"' adds lines to [deferred]; SERVER_CODINGS=identity,gzip has the batch endpoint decode
#   only those (415 to another: what "auto" costs against a backend without zstd); LOG=FILE another receiver log;
#   IDLE=SECONDS keeps the agent and the capture on that long after the drain and says what went meanwhile (an idle
#   connection's TCP keepalive probes, MQTT's PINGREQ), left out of the table's figures.
# Needs root or user namespaces (unshare -n), tcpdump, mosquitto, gpsd.
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-4}
uplinks=${2:-"http-gzip http-zstd traccar owntracks"}
export PATH="$PATH:/opt/swift/usr/bin:/usr/sbin"
if [ -z "${WAYMARK_AIR_NETNS:-}" ]; then
    scripts/install-deps.sh --bench >/dev/null
    for tool in tcpdump mosquitto zstd; do
        command -v "$tool" >/dev/null || { echo "measure-air-bytes: $tool is missing" >&2; exit 1; }
    done
    waymark=$(scripts/build-release.sh)
    userns=()
    [ "$(id -u)" -eq 0 ] || userns=(-r)
    exec unshare "${userns[@]}" -n env WAYMARK_AIR_NETNS=1 WAYMARK_AIR_BINARY="$waymark" "$0" "$@"
fi
waymark=$WAYMARK_AIR_BINARY
ip link set lo up
# This namespace's loopback as a link, for the sinks' traffic: 1,500 bytes, one segment a packet (the replays'
# gpsd, which reads its log over loopback, drops its client on such a link: it keeps the loopback's defaults).
as_link() {
    if [ "$1" = on ]; then ip link set lo mtu 1500 gso_max_segs 1; else ip link set lo mtu 65536 gso_max_segs 65535; fi
}
log=${LOG:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
[ -n "${SPOOL:-}" ] || python3 scripts/bench/continue-log.py "$log" "$copies" > "$work/drive.log"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
closed=$(free_port)

printf '%-16s %9s %8s %9s %9s %9s %12s %11s\n' uplink locations requests "app B/loc" "ip B/loc" "live B/loc" \
    "8h day (KB)" "cpu µs/loc"
for uplink in $uplinks; do
    dir="$work/$uplink"
    mkdir -p "$dir"
    port=$(free_port)
    coding=""
    level=""
    case $uplink in
        http)
            section=$(printf '[sinks.http]\nenabled = true\nurl = "http://127.0.0.1:%s/batch"\n%s' \
                "$port" "${HTTP_SETTINGS:-}")
            ;;
        http-*)
            coding=${uplink#http-}
            if [[ $coding == *-* ]]; then level=${coding#*-}; coding=${coding%%-*}; fi
            section=$(printf '[sinks.http]\nenabled = true\nurl = "http://127.0.0.1:%s/batch"\ncontent_encoding = "%s"\n%s\n%s' \
                "$port" "$coding" "${level:+compression_level = $level}" "${HTTP_SETTINGS:-}")
            ;;
        traccar) section=$(printf '[sinks.traccar]\nenabled = true\nurl = "http://127.0.0.1:%s/"' "$port") ;;
        # Unpaced (drain_rate = 0): at one location a second live, the default pace never waits.
        owntracks) section=$(printf '[sinks.owntracks]\nenabled = true\nhost = "127.0.0.1"\nport = %s\ndrain_rate = 0' "$port") ;;
        *) echo "unknown uplink $uplink" >&2; exit 2 ;;
    esac
    cat > "$dir/waymark.toml" <<TOML
[agent]
state_dir = "$dir/state"
log_dir = "$dir/logs"
runtime_dir = "$dir/run"
device_id = "bus-0042"

[deferred]
${DEFERRED:-}

[sinks.file]
enabled = false

[places]
enabled = false

$section
TOML
    spool="$dir/state/spool.sqlite"
    if [ -n "${SPOOL:-}" ]; then
        # A spool the agent filled live: copied through its last closed deferral window (kind 14, its
        # `deferred_finished`), with no window or trip left open and its sinks' cursors forgotten, so that the sink
        # sends all of it and only it.
        mkdir -p "$dir/state"
        sqlite3 "$SPOOL" ".backup '$spool'"
        last=$(sqlite3 "$spool" 'SELECT COALESCE(MAX(seq), 0) FROM event WHERE kind = 14')
        [ "$last" -gt 0 ] || { echo "measure-air-bytes: $SPOOL holds no closed deferral window" >&2; exit 1; }
        sqlite3 "$spool" "DELETE FROM event WHERE seq > $last; UPDATE state SET value = 0 WHERE key = 'window_start';
            DELETE FROM open_trip; DELETE FROM cursor"
    else
        "$waymark" replay "$work/drive.log" --spool --config "$dir/waymark.toml" 2>"$dir/replay.err" ||
            { tail -3 "$dir/replay.err" >&2; exit 1; }
        last=$(sqlite3 "$spool" 'SELECT MAX(seq) FROM event')
    fi
    locations=$(sqlite3 "$spool" "SELECT COUNT(*) FROM event WHERE kind = 1 AND seq <= $last")
    if [ "$uplink" = owntracks ]; then
        printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n%s' "$port" \
            "$([ "$(id -u)" -eq 0 ] && echo 'user root')" > "$dir/mosquitto.conf"
        mosquitto -c "$dir/mosquitto.conf" 2>/dev/null &
        server=$!
    else
        python3 Tests/Fixtures/uplink/uplink-server.py --quiet --port "$port" --port-file "$dir/port" \
            --log "$dir/received.jsonl" ${SERVER_CODINGS:+--codings "$SERVER_CODINGS"} 2>"$dir/server.err" &
        server=$!
    fi
    pids+=("$server")
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    as_link on
    tcpdump -i lo -U -s 128 -w "$dir/capture.pcap" "tcp port $port" 2>/dev/null &
    capture=$!
    pids+=("$capture")
    sleep 1
    "$waymark" run --config "$dir/waymark.toml" --gpsd "127.0.0.1:$closed" 2>"$dir/agent.err" &
    agent=$!
    pids+=("$agent")
    # Until the sink's cursor has passed the drive's last event (Traccar and OwnTracks skip what they do not send).
    for _ in $(seq 1200); do
        cursor=$(sqlite3 "$spool" "SELECT seq FROM cursor WHERE sink = '${uplink%%-*}'" 2>/dev/null || echo 0)
        [ "${cursor:-0}" -ge "$last" ] && break
        sleep 0.1
    done
    drained=$(date +%s.%N)
    sleep "${IDLE:-1}"
    read -r utime stime < <(awk '{print $14, $15}' "/proc/$agent/stat")
    kill -INT "$capture"; wait "$capture" 2>/dev/null || true
    kill -INT "$agent"; wait "$agent" 2>/dev/null || true
    kill "$server"; wait "$server" 2>/dev/null || true
    as_link off
    [[ $uplink == http* && -z "${levels_spool:-}" ]] && levels_spool=$spool
    pids=()
    python3 - "$dir/capture.pcap" "$port" "$uplink" "$locations" "$utime" "$stime" "$(getconf CLK_TCK)" \
        "$drained" "${IDLE:-}" <<'PY'
import struct, sys
path, port, uplink = sys.argv[1], int(sys.argv[2]), sys.argv[3]
locations, utime, stime, tck = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
drained, idle = float(sys.argv[8]) + 0.5, sys.argv[9]
idle_packets = idle_bytes = 0
data = open(path, "rb").read()
endian = "<" if data[:4] == b"\xd4\xc3\xb2\xa1" else ">"
offset, app, ip, requests, syns, handshake, pure_ack = 24, 0, 0, 0, [], 0, 0
connections = {}
while offset + 16 <= len(data):
    seconds, micros, caplen, _ = struct.unpack(endian + "IIII", data[offset:offset + 16])
    packet = data[offset + 16:offset + 16 + caplen]
    offset += 16 + caplen
    header = packet[14:]  # the loopback's Ethernet header is not on the air
    ihl = (header[0] & 0x0F) * 4
    total = struct.unpack("!H", header[2:4])[0]
    tcp = header[ihl:]
    source, destination = struct.unpack("!HH", tcp[:4])
    flags = tcp[13]
    payload = total - ihl - (tcp[12] >> 4) * 4
    if idle and seconds + micros / 1e6 > drained:
        idle_packets += 1
        idle_bytes += total
        continue
    app += payload
    ip += total
    client = source if destination == port else destination
    connection = connections.setdefault(client, {"first": [], "payload": 0})
    if len(connection["first"]) < 3:
        connection["first"].append(total)  # SYN, SYN-ACK, ACK
    if payload == 0 and not flags & 0x03:
        pure_ack = total
    if destination == port and payload > 0:
        connection["payload"] += payload
    if destination == port and payload >= 4 and tcp[(tcp[12] >> 4) * 4:][:4] in (b"POST", b"GET "):
        requests += 1
# A connection per request, as live: its handshake (measured) and its close (FIN, FIN, ACK: a pure ACK's size each).
first = next(iter(connections.values()))["first"] if connections else [0, 0, 0]
per_connection = sum(first) + 3 * pure_ack
extra = max(requests - len(connections), 0) * per_connection if uplink.startswith("http") else 0
live = ip + extra
shown = str(requests) if requests else "-"
print(f"{uplink:<16} {locations:9d} {shown:>8} {app / locations:9.1f} {ip / locations:9.1f} "
      f"{live / locations:9.1f} {live / locations * 28800 / 1000:12.0f} {(utime + stime) / tck * 1e6 / locations:11.1f}")
if idle:
    print(f"  idle {idle} s after the drain: {idle_packets} IP packets, {idle_bytes} bytes")
PY
done
if [ -n "${levels_spool:-}" ] && [ "${LEVELS:-1}" != 0 ]; then
    echo
    python3 scripts/measure-coding-levels.py "$levels_spool"
fi
