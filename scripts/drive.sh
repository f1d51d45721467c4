#!/usr/bin/env bash
# Quick start: the main job end to end. A real gpsd replays the real 26-minute car drive through
# Regensburg (Garmin Geko 301, 2010) and `waymark run --print` connected to it prints the events.
#   scripts/drive.sh [LOG]        (default: the Regensburg drive)
# Set REALTIME=1 to feed the log at the receiver's own pace through gpsfake instead of all at once.
# The agent keeps its spool and writes its fleet-review logs (daily event log, one GPX track per trip, trip
# summaries) under $WAYMARK_DRIVE_DIR (default /tmp/waymark-drive), which are kept after the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="$PATH:/opt/swift/usr/bin"
log=${1:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
waymark=$(scripts/build-release.sh)

work=$(mktemp -d)
out=${WAYMARK_DRIVE_DIR:-/tmp/waymark-drive}
rm -rf "$out"
mkdir -p "$out"
printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\n' "$out" "$out" > "$out/waymark.toml"
cleanup() {
    kill "$run_pid" 2>/dev/null || true
    [ -n "${gpsd_pid:-}" ] && kill "$gpsd_pid" 2>/dev/null || true
    [ -n "${socat_pid:-}" ] && kill "$socat_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
gpsd_port=$(free_port)
run_pid=""
trap cleanup EXIT

if [ "${REALTIME:-0}" = 1 ]; then
    gpsfake -q -c 2 -P "$gpsd_port" "$log" >/dev/null 2>&1 &
    gpsd_pid=$!
else
    # The tests' whole-log recipe (Tests/WaymarkTestSupport/GPSDTestServer.swift): socat serves the log,
    # gpsd reads it when a client watches, and "# EOF" makes gpsd report the receiver gone at the end.
    feed_port=$(free_port)
    { cat "$log"; printf '\n# EOF\n'; } > "$work/feed.log"
    socat -u "OPEN:$work/feed.log" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" &
    socat_pid=$!
    /usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$work/ctl.sock" "tcp://127.0.0.1:$feed_port" &
    gpsd_pid=$!
fi
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && break; sleep 0.1; done

echo "waymark run --print --config $out/waymark.toml --gpsd 127.0.0.1:$gpsd_port   (events on stdout, diagnostics on stderr)" >&2
"$waymark" run --print --config "$out/waymark.toml" --gpsd "127.0.0.1:$gpsd_port" > "$work/events.jsonl" &
run_pid=$!
# The drive ends when gpsd reports the receiver gone; then stop the agent gracefully.
for _ in $(seq 3000); do
    grep -q '"code":"no_device"' "$work/events.jsonl" 2>/dev/null && break
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.1
done
kill -INT "$run_pid" 2>/dev/null || true
wait "$run_pid" || true
run_pid=""
cat "$work/events.jsonl"
echo "$(grep -c '"type":"location"' "$work/events.jsonl") location events of $(wc -l < "$work/events.jsonl") events" >&2
echo "fleet-review logs in $out/logs:" >&2
(cd "$out/logs" && find . -type f | sort | sed 's/^/  /') >&2
echo "waymark trips list:" >&2
"$waymark" trips list --config "$out/waymark.toml" >&2
echo "waymark spool stats:" >&2
"$waymark" spool stats --config "$out/waymark.toml" >&2
