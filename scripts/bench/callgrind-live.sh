#!/usr/bin/env bash
# Counts the instructions `waymark run --print` executes on a drive, live through one real gpsd, under
# valgrind's callgrind (repeatable where CPU time on a shared machine is not). The feed is bench-live.sh's:
# the log K times in a row as one drive (scripts/bench/continue-log.py), but paced (RATE below).
#
#   scripts/bench/callgrind-live.sh BINARY [K] [LOG] > SUMMARY
#
# BINARY   a waymark with its symbols: valgrind 3.19 cannot read the debug information of the release build, so
#          take its symbol table only: strip --strip-debug -o OUT .build-release/release/waymark
#          `c`: bench-live.sh's C libgps loop (scripts/bench/minimal-client.c) on the same feed, the peer
# K        copies of the log (default 4: Regensburg as one 1 h 45 min drive)
# LOG      default Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log
# RATE     environment: lines a second gpsd is fed (default 1000). gpsd drops messages for a client that does not
#          keep up, and a client under callgrind runs some 50 times slower: fed all at once, what it drops differs
#          from run to run, and two runs' totals do not compare.
# Prints the total instructions, the agent's counters (to check that gpsd dropped nothing for the slow client:
# compare with `waymark replay` of the same feed) and the functions' inclusive costs; keeps callgrind's output
# in $OUT (default a temporary folder, printed).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh --bench >/dev/null
binary=${1:?usage: callgrind-live.sh BINARY [K] [LOG]}
copies=${2:-4}
log=${3:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/callgrind-live.XXXXXX")}
mkdir -p "$out"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listening() { grep -q "0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp; }
{ python3 scripts/bench/continue-log.py "$log" "$copies"; printf '\n# EOF\n'; } >"$out/feed.log"
feed_port=$(free_port)
gpsd_port=$(free_port)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
socat -u "SYSTEM:exec python3 $PWD/scripts/bench/pace-feed.py ${RATE:-1000} $out/feed.log" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" &
pids+=("$!")
for _ in $(seq 100); do listening "$feed_port" && break; sleep 0.1; done
/usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$out/ctl.sock" "tcp://127.0.0.1:$feed_port" 2>"$out/gpsd.err" &
pids+=("$!")
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && break; sleep 0.1; done
rm -rf "$out/state" "$out/logs" "$out/run"
printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\nruntime_dir = "%s/run"\n' "$out" "$out" "$out" \
    >"$out/waymark.toml"
command=("$binary" run --print --config "$out/waymark.toml" --gpsd "127.0.0.1:$gpsd_port")
if [ "$binary" = c ]; then
    cc -O2 -o "$out/minimal-client" scripts/bench/minimal-client.c -lgps
    command=("$out/minimal-client" 127.0.0.1 "$gpsd_port") # ends by itself at the receiver's end
fi
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" "${command[@]}" >"$out/events" 2>"$out/err" &
agent=$!
while kill -0 "$agent" 2>/dev/null; do
    if tail -c 4096 "$out/events" | grep -q '"code":"no_device"'; then kill -INT "$agent"; break; fi
    sleep 0.5
done
wait "$agent" || true
echo "output in $out"
grep -o 'counters=[^[]*' "$out/err" | tail -n 1 || grep -v '^==' "$out/err" | tail -n 1 || true
callgrind_annotate --inclusive=yes "$out/callgrind.out" 2>/dev/null | head -n 80
