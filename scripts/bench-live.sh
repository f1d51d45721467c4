#!/usr/bin/env bash
# Live cost of `waymark run --print` next to `gpspipe -w`: ONE real gpsd replays a receiver log to both
# clients at once, and GNU time measures each client's CPU (user+sys) and peak RSS.
#
#   scripts/bench-live.sh [-k K] [-r ROUNDS] [-p LINES_PER_S] [LOG]
#
#   LOG      an NMEA receiver log (default: Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log)
#   -k K     feed the log K times in a row (repeating an NMEA log repeats its times; fine here). Default:
#            enough copies for >= 10,000 TPVs, counted from LOG.chk when it exists, else 4.
#   -r R     rounds (default 5); the table shows the median of each figure over the rounds.
#   -p RATE  feed the log at RATE lines per second instead of all at once (default 0: all at once).
#
# gpsd does not wait for a slow client: when a client's socket is full it drops the message for that
# client (EAGAIN) or disconnects it (short write). So every round also replays gpspipe's capture through
# `waymark replay` and compares the messages it judges with those `waymark run` judged live (both from
# their counters: each TPV ends in one epoch's verdict or in duplicate_epoch, each SKY in sky, …); a
# shortfall means waymark did not keep up with gpsd at that rate (use -p to find the rate it sustains).
# Locations alone cannot be compared: live, the copies of the log arrive within seconds with the same GPS
# times and copies 2 to K are held as out of order, while replay, on the capture's clock, sees 26 minutes
# between copies and starts a new time base for each.
#
# Each round has two phases:
#   active  the tests' whole-log recipe (Tests/WaymarkTestSupport/GPSDTestServer.swift: socat serves
#           the feed, gpsd reads it when a client watches); the feed starts 2 s after gpsd opens it, so both clients are watching before the
#           first sentence. The round ends when gpspipe has seen `"activated":0` (the `# EOF` appended to
#           the feed) and waymark has emitted `no_device`; then both get SIGINT.
#   idle    the same two clients on a gpsd whose receiver is connected but silent, for the active
#           phase's wall time: start-up, connection and idle cost. Active minus idle, divided by the
#           TPVs, is the marginal CPU per TPV.
# CPU seconds include process start-up (GNU time measures the whole process); that is part of an honest
# comparison for a short run, and the idle phase shows how much of it there is.
#
# Environment: TIMEOUT (seconds to wait for the end of one active phase; default 60 + 30 per copy),
# KEEP=1 keeps the work directory (outputs and GNU time reports) and prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

usage() { sed -n '4,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench-live: $*" >&2; exit 1; }

copies=""
rounds=5
rate=0
while getopts "k:r:p:h" option; do
    case $option in
    k) copies=$OPTARG ;;
    r) rounds=$OPTARG ;;
    p) rate=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
log=${1:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
[ -r "$log" ] || die "$log: cannot read the log"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-r $rounds: expected a positive number of rounds"
if [ -z "$copies" ]; then
    copies=4
    if [ -r "$log.chk" ]; then
        per_copy=$(grep -c '"class":"TPV"' "$log.chk" || true)
        if [ "$per_copy" -gt 0 ]; then copies=$(((10000 + per_copy - 1) / per_copy)); fi
    fi
fi
[[ $copies =~ ^[1-9][0-9]*$ ]] || die "-k $copies: expected a positive number of copies"
[[ $rate =~ ^[0-9]+$ ]] || die "-p $rate: expected lines per second (0: all at once)"
timeout=${TIMEOUT:-$((60 + 30 * copies))}

for tool in /usr/sbin/gpsd gpspipe socat /usr/bin/time python3 swift; do
    command -v "$tool" >/dev/null ||
        die "$tool not found: run scripts/install-deps.sh (Debian: gpsd gpsd-clients socat time)"
done

# The board's binary (scripts/build-release.sh); WAYMARK=PATH measures another build with the same script.
waymark=${WAYMARK:-$(scripts/build-release.sh)}
[ -x "$waymark" ] || die "$waymark: no binary after the build"

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-live.XXXXXX")
pids=() # every process this script started, killed by id on exit

# Kills a process and everything below it, children first, by id. socat's SYSTEM address runs its command
# through system(), two levels down, and GNU time waits for its client: killing only the parent would
# orphan them.
kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}

cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill_tree "$pid"; done
    wait 2>/dev/null || true
    pids=()
    if [ "${KEEP:-0}" = 1 ]; then echo "bench-live: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Microseconds since the epoch, without starting a process (the polling must not steal the clients' CPU).
now_us() { local t=$EPOCHREALTIME; echo $((${t/./} + 0)); }
# Whether something listens on 127.0.0.1:PORT, without connecting (socat serves its first connection only).
listening() { grep -q "0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp; }

# Stops the processes of one phase and forgets them.
stop_all() {
    local pid
    for pid in "${pids[@]}"; do kill_tree "$pid"; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}

# The pid of the program GNU time runs (time ignores SIGINT itself while it waits).
child_of() {
    local child=""
    for _ in $(seq 100); do
        child=$(pgrep -P "$1" | head -n 1 || true)
        [ -n "$child" ] && break
        sleep 0.05
    done
    echo "$child"
}

{
    for _ in $(seq "$copies"); do cat "$log"; done
    printf '\n# EOF\n'
} >"$work/feed.log"
feed="exec cat $work/feed.log"
if [ "$rate" -gt 0 ]; then
    # Writes the feed in slices every 10 ms, so gpsd reads RATE lines per second.
    cat >"$work/pace.py" <<'PYTHON'
import sys, time
rate, path = int(sys.argv[1]), sys.argv[2]
lines = open(path, "rb").readlines()
per_tick = max(1, rate // 100)
start = time.monotonic()
for index in range(0, len(lines), per_tick):
    delay = start + index / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    sys.stdout.buffer.write(b"".join(lines[index:index + per_tick]))
    sys.stdout.buffer.flush()
PYTHON
    feed="exec python3 $work/pace.py $rate $work/feed.log"
fi

# One phase: gpsd on a socat source running SOURCE_COMMAND and both clients under GNU time, until the
# end of the replay or, when WALL_LIMIT_US is given, for that many microseconds.
# Writes $dir/{a.jsonl,b.json,a.time,b.time,wall_us}.
run_phase() {
    local dir=$1 source_command=$2 wall_limit_us=$3 feed_port gpsd_port started elapsed_us socat_pid gpsd_pid
    local time_a time_b client_a client_b
    mkdir -p "$dir"
    feed_port=$(free_port)
    gpsd_port=$(free_port)
    socat -u "SYSTEM:$source_command" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" 2>"$dir/socat.err" &
    socat_pid=$!
    pids+=("$socat_pid")
    for _ in $(seq 100); do listening "$feed_port" && break; sleep 0.1; done
    listening "$feed_port" || die "socat did not start listening on 127.0.0.1:$feed_port: $(cat "$dir/socat.err")"
    /usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$dir/ctl.sock" "tcp://127.0.0.1:$feed_port" 2>"$dir/gpsd.err" &
    gpsd_pid=$!
    pids+=("$gpsd_pid")
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && break; sleep 0.1; done
    (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null ||
        die "gpsd did not start listening on 127.0.0.1:$gpsd_port: $(tail -n 3 "$dir/gpsd.err")"

    started=$(now_us)
    # A non-interactive shell starts background jobs with SIGINT ignored; gpspipe installs no handler
    # of its own and would never stop, so both clients get the default disposition back.
    # The agent as it runs on a board: its spool and file sink in a directory of this round.
    printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\n' "$dir" "$dir" > "$dir/waymark.toml"
    env --default-signal=INT /usr/bin/time -v -o "$dir/a.time" "$waymark" run --print --config "$dir/waymark.toml" --gpsd "127.0.0.1:$gpsd_port" \
        >"$dir/a.jsonl" 2>"$dir/a.err" &
    time_a=$!
    pids+=("$time_a")
    env --default-signal=INT /usr/bin/time -v -o "$dir/b.time" gpspipe -w "127.0.0.1:$gpsd_port" \
        >"$dir/b.json" 2>"$dir/b.err" &
    time_b=$!
    pids+=("$time_b")
    client_a=$(child_of "$time_a")
    client_b=$(child_of "$time_b")
    [ -n "$client_a" ] || die "waymark did not start: $(cat "$dir/a.err" "$dir/a.time" 2>/dev/null)"
    [ -n "$client_b" ] || die "gpspipe did not start: $(cat "$dir/b.err" "$dir/b.time" 2>/dev/null)"

    while :; do
        kill -0 "$client_a" 2>/dev/null || die "waymark exited early: $(tail -n 5 "$dir/a.err")"
        kill -0 "$client_b" 2>/dev/null || die "gpspipe exited early: $(tail -n 5 "$dir/b.err")"
        elapsed_us=$(($(now_us) - started))
        if [ -z "$wall_limit_us" ]; then
            # The ends of the outputs only: the files grow to megabytes and this runs every 0.1 s.
            if ! grep -q -m 1 '"class":"TPV"' "$dir/b.json"; then
                if grep -q "device open error\|activation failed" "$dir/gpsd.err"; then
                    die "gpsd could not open the feed: $(grep -v DBUS "$dir/gpsd.err" | tail -n 3)"
                fi
                if grep -q '"activated":0' "$dir/b.json"; then die "the replay ended without a TPV: is $log NMEA?"; fi
            elif tail -c 4096 "$dir/b.json" | grep -q '"activated":0' &&
                tail -c 4096 "$dir/a.jsonl" | grep -q '"code":"no_device"'; then
                break
            fi
            [ "$elapsed_us" -lt $((timeout * 1000000)) ] ||
                die "no end of the replay after ${timeout}s: gpspipe saw" \
                    "$(grep -c '"class":"TPV"' "$dir/b.json" || true) TPVs; waymark: $(tail -n 2 "$dir/a.err")"
        elif [ "$elapsed_us" -ge "$wall_limit_us" ]; then
            break
        fi
        sleep 0.1
    done
    kill -INT "$client_a" "$client_b" 2>/dev/null || true
    for _ in $(seq 200); do
        if ! kill -0 "$time_a" 2>/dev/null && ! kill -0 "$time_b" 2>/dev/null; then break; fi
        sleep 0.05
    done
    if kill -0 "$time_a" 2>/dev/null; then die "waymark did not stop within 10 s of SIGINT"; fi
    if kill -0 "$time_b" 2>/dev/null; then die "gpspipe did not stop within 10 s of SIGINT"; fi
    echo "$elapsed_us" >"$dir/wall_us"
    stop_all
}

# user+sys seconds and peak RSS (kB) from a GNU time -v report.
time_figures() {
    awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
        END {printf "%.3f\t%d\n", u + s, r}' "$1"
}

results="$work/results.tsv"
dropped=0
printf 'round\tphase\tclient\tcpu_s\trss_kb\twall_s\ttpv\tlocations\tjudged\texpected\n' >"$results"

# The messages an agent judged, from a counters line ("location=774 out_of_order=2319 sky=3152 …"): the
# counters of a message's fate, not those counted beside it (trip, spool_commits, time_base_reset, …).
judged() {
    tr ' ' '\n' | awk -F= '
        $1 ~ /^(duplicate_epoch|sky|attitude|ignored_class|unparsable|location|no_fix|no_time|invalid_position)$/ ||
        $1 ~ /^(stale|out_of_order|repeated_epoch|time_jump|inaccurate|paused|filtered_[a-z_]+)$/ { n += $2 }
        END { print n + 0 }'
}
pace="all at once"
if [ "$rate" -gt 0 ]; then pace="$rate lines/s"; fi
gpsd_version=$(/usr/sbin/gpsd -V 2>&1 | awk '{print $2}')
echo "log: $log x $copies ($(wc -l <"$work/feed.log") lines, $pace), $rounds rounds; gpsd $gpsd_version" >&2
for round in $(seq "$rounds"); do
    active="$work/round$round/active"
    run_phase "$active" "sleep 2; $feed" ""
    wall_us=$(cat "$active/wall_us")
    wall=$(printf '%d.%06d' $((wall_us / 1000000)) $((wall_us % 1000000)))
    tpv=$(grep -c '"class":"TPV"' "$active/b.json" || true)
    locations=$(grep -c '"type":"location"' "$active/a.jsonl" || true)
    [ "$tpv" -gt 0 ] || die "round $round: gpspipe saw no TPV"
    # What waymark makes of exactly the stream gpspipe received: the messages to expect judged live.
    judged=$(grep -o 'counters=[^[]*' "$active/a.err" | tail -n 1 | sed 's/^counters=//' | judged)
    expected=$("$waymark" replay "$active/b.json" 2>&1 >/dev/null | tail -n 1 | sed 's/^.*\.json: //' | judged)
    if grep -q '"code":"gpsd_unavailable"' "$active/a.jsonl"; then
        # gpsd closes a client whose socket it cannot write to; the round still counts, flagged.
        echo "round $round: WARNING gpsd closed waymark's connection during the replay:" \
            "$(grep -m 1 '"code":"gpsd_unavailable"' "$active/a.jsonl")" >&2
        dropped=$((dropped + 1))
    fi
    idle="$work/round$round/idle"
    # A receiver that is connected and silent; the shell ends by itself if anything outlives the script.
    run_phase "$idle" "exec sleep $((wall_us / 1000000 + 60))" "$wall_us"
    for phase in active idle; do
        for client in a:waymark b:gpspipe; do
            figures=$(time_figures "$work/round$round/$phase/${client%%:*}.time")
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$phase" "${client#*:}" "$figures" "$wall" \
                "$tpv" "$locations" "$judged" "$expected" >>"$results"
        done
    done
    echo "round $round: $tpv TPVs, $locations locations live, $judged of $expected messages judged live," \
        "${wall:0:-4} s" >&2
done

python3 - "$results" "$log" "$copies" "$rounds" "$dropped" "$pace" <<'PYTHON'
import csv, statistics, sys

path, log, copies, rounds, dropped, pace = sys.argv[1:]
rows = list(csv.DictReader(open(path), delimiter="\t"))

def median(client, phase, field):
    return statistics.median(float(r[field]) for r in rows if r["client"] == client and r["phase"] == phase)

def per_round(client, phase, f):
    return [f(r) for r in rows if r["client"] == client and r["phase"] == phase]

tpv = statistics.median(float(r["tpv"]) for r in rows)
locations = statistics.median(float(r["locations"]) for r in rows)
judged = statistics.median(float(r["judged"]) for r in rows)
expected = statistics.median(float(r["expected"]) for r in rows)
short = [r for r in rows if r["client"] == "waymark" and r["phase"] == "active" and r["judged"] != r["expected"]]
wall = statistics.median(float(r["wall_s"]) for r in rows)
figures = {}
for client in ("waymark", "gpspipe"):
    active = per_round(client, "active", lambda r: r)
    idle = {r["round"]: r for r in per_round(client, "idle", lambda r: r)}
    gross = [float(r["cpu_s"]) * 1e6 / float(r["tpv"]) for r in active]
    marginal = [(float(r["cpu_s"]) - float(idle[r["round"]]["cpu_s"])) * 1e6 / float(r["tpv"]) for r in active]
    figures[client] = dict(
        cpu=median(client, "active", "cpu_s"),
        gross=statistics.median(gross),
        rss=median(client, "active", "rss_kb") / 1024,
        idle_cpu=median(client, "idle", "cpu_s"),
        idle_rss=median(client, "idle", "rss_kb") / 1024,
        marginal=statistics.median(marginal),
    )

print(f"log {log} x {copies}, fed {pace}: median of {rounds} rounds; {tpv:.0f} TPVs (gpspipe), "
      f"{locations:.0f} location events live, {judged:.0f} of {expected:.0f} messages judged "
      "(waymark live / replay of gpspipe's capture), "
      f"{wall:.2f} s wall per active phase")
print()
print(f"{'':<22}{'CPU s (user+sys)':>18}{'CPU us/TPV':>12}{'peak RSS MB':>13}")
for client, label in (("waymark", "waymark run --print"), ("gpspipe", "gpspipe -w")):
    f = figures[client]
    print(f"{label:<22}{f['cpu']:>18.3f}{f['gross']:>12.2f}{f['rss']:>13.1f}")
print(f"idle baseline: the same clients, receiver connected but silent, {wall:.2f} s")
for client, label in (("waymark", "waymark run --print"), ("gpspipe", "gpspipe -w")):
    f = figures[client]
    print(f"{label:<22}{f['idle_cpu']:>18.3f}{'':>12}{f['idle_rss']:>13.1f}")
print(f"marginal (active - idle, per round)")
for client, label in (("waymark", "waymark run --print"), ("gpspipe", "gpspipe -w")):
    print(f"{label:<22}{'':>18}{figures[client]['marginal']:>12.2f}")
print()
w, g = figures["waymark"], figures["gpspipe"]
ratio = lambda a, b: f"{a / b:.2f}x" if b > 0 else "n/a (gpspipe's figure is 0 at GNU time's 10 ms resolution)"
print(f"waymark/gpspipe CPU per TPV: {ratio(w['gross'], g['gross'])} gross, "
      f"{ratio(w['marginal'], g['marginal'])} marginal")
print(f"waymark peak RSS: {w['rss']:.1f} MB (gpspipe {g['rss']:.1f} MB)")
if short:
    print(f"WARNING: in {len(short)} of {rounds} rounds waymark judged fewer messages than the replay of "
          f"gpspipe's capture ({', '.join(r['judged'] + '/' + r['expected'] for r in short)}): it did not "
          "keep up and gpsd dropped messages for it; its CPU per TPV is then understated (try -p)")
if dropped != "0":
    print(f"WARNING: in {dropped} of {rounds} rounds gpsd closed waymark's connection (a slow reader); "
          "waymark's figures for those rounds cover fewer TPVs than gpspipe's")
PYTHON
