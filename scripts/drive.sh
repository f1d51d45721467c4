#!/usr/bin/env bash
# Quick start: the main job end to end. A real gpsd replays the real 26-minute car drive through
# Regensburg (Garmin Geko 301, 2010) and `waymark run --print` connected to it prints the events.
#   scripts/drive.sh [LOG]        (default: the Regensburg drive)
# Set REALTIME=1 to feed the log at the receiver's own pace through gpsfake instead of all at once (CYCLE=S
# seconds between sentences, default 0.16, the Regensburg receiver's).
# The agent keeps its spool and writes its fleet-review logs (daily event log, one GPX track per trip, trip
# summaries) under $WAYMARK_DRIVE_DIR (default /tmp/waymark-drive), which are kept after the run.
# WAYMARK=PATH runs that binary instead of the release build (scripts/check-arm64.sh: the arm64 one under qemu).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="$PATH:/opt/swift/usr/bin"
log=${1:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
waymark=${WAYMARK:-$(scripts/build-release.sh)}

work=$(mktemp -d)
out=${WAYMARK_DRIVE_DIR:-/tmp/waymark-drive}
rm -rf "$out"
mkdir -p "$out"
printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\nruntime_dir = "%s/run"\n' "$out" "$out" "$out" > "$out/waymark.toml"
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
    # Once through the log (-1), one sentence every CYCLE seconds: 0.16 s is the Regensburg receiver's pace
    # (9,931 sentences in 26 minutes); set CYCLE for another log.
    gpsfake -q -1 -c "${CYCLE:-0.16}" -P "$gpsd_port" "$log" >/dev/null 2>&1 &
    gpsd_pid=$!
else
    # The tests' whole-log recipe (Tests/WaymarkTestSupport/GPSDTestServer.swift): socat serves the log,
    # gpsd reads it when a client watches, and "# EOF" makes gpsd report the receiver gone at the end.
    feed_port=$(free_port)
    { cat "$log"; printf '\n# EOF\n'; } > "$work/feed.log"
    socat -u "OPEN:$work/feed.log" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" &
    socat_pid=$!
    # gpsd says on stderr that it has no D-Bus to announce on: nothing the drive needs, kept out of its output.
    /usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$work/ctl.sock" "tcp://127.0.0.1:$feed_port" 2>"$work/gpsd.err" &
    gpsd_pid=$!
fi
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && break; sleep 0.1; done

echo "waymark run --print --config $out/waymark.toml --gpsd 127.0.0.1:$gpsd_port   (events on stdout, diagnostics on stderr)" >&2
"$waymark" run --print --config "$out/waymark.toml" --gpsd "127.0.0.1:$gpsd_port" > "$work/events.jsonl" &
run_pid=$!
# The drive ends when gpsd reports the receiver gone; then stop the agent gracefully. Through gpsfake the
# agent can also see no receiver before gpsfake attaches its pty: there the end is a no_device after the
# first location, or gpsfake's own end. (At most 5 minutes all at once, 3 hours at the receiver's pace.)
ended() {
    local events="$work/events.jsonl"
    if [ "${REALTIME:-0}" = 1 ]; then
        kill -0 "$gpsd_pid" 2>/dev/null || return 0
        grep -q '"type":"location"' "$events" 2>/dev/null && tail -n 3 "$events" | grep -q '"code":"no_device"'
    else
        grep -q '"code":"no_device"' "$events" 2>/dev/null
    fi
}
limit=3000
[ "${REALTIME:-0}" = 1 ] && limit=108000
for _ in $(seq "$limit"); do
    ended && break
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
