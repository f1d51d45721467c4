#!/usr/bin/env bash
# What `waymark run` costs next to the least a gpsd client does: ONE real gpsd replays a receiver log to each
# client in turn, and wait4 (scripts/bench/rusage.py) gives the client's CPU (user+sys), peak RSS, voluntary
# context switches and file-system output. The clients:
#   waymark   `waymark run --print`, default configuration (spool, deferral, file sink) in a fresh state
#             directory (-s: a stopped agent's), events to a file: the board's static build (scripts/build-release.sh)
#   c         a minimal C libgps loop that writes time, lat, lon per TPV (scripts/bench/minimal-client.c,
#             built here with cc -O2): libgps's own parsing, the floor
#   gpspipe   `gpspipe -w` (Debian gpsd-clients), the raw JSON to a file
#   python    the same loop as c on Debian's python3-gps (scripts/bench/minimal-client.py)
#   floor     paced only: waymark with its work taken out (FLOOR=$(scripts/bench/build-floor.sh)): it reads, maps
#             and assembles gpsd's messages as waymark does, then drops them; it says nothing, so it is stopped
#             0.2 s after the feed has ended (socat gone), where the others see the receiver's end
#
#   scripts/bench-live.sh [-k K] [-r ROUNDS] [-x SPEEDUP] [-l LINES] [-s] [LOG]
#
#   LOG      an NMEA receiver log (default: Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log)
#   -k K     feed the log K times in a row as one drive K times as long: each copy comes later by the log's span
#            (scripts/bench/continue-log.py), time never goes back. Default: all at once, enough copies for
#            >= 10,000 TPVs (counted from LOG.chk when it exists, else 4); paced, 1.
#   -r R     rounds (default 5); each round runs every client once, starting with another each round. The
#            table shows the median of each figure over the rounds.
#   -x N     paced: feed the log at N times the receiver's own pace (its lines over the time between its first
#            and last TPV in LOG.chk), as gpsfake does, where wake-ups dominate. Default 0: all at once.
#   -l LINES only the first LINES lines of the log (to keep a paced run short).
#   -s       a board's start after a stop: before each start of waymark, `waymark replay --spool` fills that
#            run's own state and log directories with 20 copies of LOG.chk (each earlier by the log's span) and
#            stops, so the spool's WAL is at its size when waymark starts on them. Default: a fresh state
#            directory, a board's first start.
#
# All at once, each round also runs every client on a gpsd whose receiver is connected but silent, for the
# same wall time as its replay (start-up, connection and idle cost): replay minus idle, per TPV, is the
# marginal cost. Paced, the idle phase is left out: the cost of waiting is part of what paced measures.
#
# gpsd does not wait for a slow client: when a client's socket is full it drops messages for it. So each round
# replays gpspipe's capture through `waymark replay` and compares the messages it judges with those
# `waymark run` judged live (their counters); a shortfall means waymark did not keep up.
#
# Environment: TIMEOUT (seconds to wait for the end of one replay; default 60 + 30 per copy, or the paced
# duration + 60), KEEP=1 keeps the work directory and prints its path, WAYMARK=PATH measures another build,
# CLIENTS="waymark c gpspipe" measures only those (gpspipe always: it counts the TPVs), FLOOR=PATH the floor's
# binary (client floor).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

usage() { sed -n '15,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench-live: $*" >&2; exit 1; }

copies=""
rounds=5
speedup=0
lines=0
stopped=0
while getopts "k:r:x:l:sh" option; do
    case $option in
    k) copies=$OPTARG ;;
    r) rounds=$OPTARG ;;
    x) speedup=$OPTARG ;;
    l) lines=$OPTARG ;;
    s) stopped=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
log=${1:-Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log}
[ -r "$log" ] || die "$log: cannot read the log"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-r $rounds: expected a positive number of rounds"
[[ $speedup =~ ^[0-9]+$ ]] || die "-x $speedup: expected a whole speed-up (0: all at once)"
[[ $lines =~ ^[0-9]+$ ]] || die "-l $lines: expected a number of lines"
if [ -z "$copies" ]; then
    copies=1
    if [ "$speedup" -eq 0 ]; then
        copies=4
        per_copy=$(grep -c '"class":"TPV"' "$log.chk" 2>/dev/null || true)
        if [ "${per_copy:-0}" -gt 0 ]; then copies=$(((10000 + per_copy - 1) / per_copy)); fi
    fi
fi
[[ $copies =~ ^[1-9][0-9]*$ ]] || die "-k $copies: expected a positive number of copies"

scripts/install-deps.sh --bench >/dev/null
for tool in /usr/sbin/gpsd gpspipe socat /usr/bin/python3 cc swift; do
    command -v "$tool" >/dev/null ||
        die "$tool not found: run scripts/install-deps.sh --bench (Debian: gpsd gpsd-clients python3-gps socat gcc)"
done
/usr/bin/python3 -c 'import gps' 2>/dev/null || die "python3-gps is not installed: run scripts/install-deps.sh --bench"

waymark=${WAYMARK:-$(scripts/build-release.sh)}
[ -x "$waymark" ] || die "$waymark: no binary after the build"
floor=${FLOOR:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-live.XXXXXX")
pids=() # every process this script started, killed by id on exit

# Kills a process and everything below it, children first, by id (socat's SYSTEM address runs its command
# through system(), two levels down, and rusage.py waits for its client).
kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}
stop_all() {
    local pid
    for pid in "${pids[@]}"; do kill_tree "$pid"; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
cleanup() {
    stop_all
    if [ "${KEEP:-0}" = 1 ]; then echo "bench-live: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cc -O2 -o "$work/minimal-client" scripts/bench/minimal-client.c -lgps || die "cannot build the C client (libgps-dev)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Microseconds since the epoch, without starting a process (the polling must not steal the clients' CPU).
now_us() { local t=${EPOCHREALTIME//[!0-9]/}; echo $((10#$t)); }
# Whether something listens on 127.0.0.1:PORT, without connecting (socat serves its first connection only).
listening() { grep -q "0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp; }
# The pid of the program rusage.py runs (it ignores SIGINT itself while it waits).
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
    python3 scripts/bench/continue-log.py "$log" "$copies" "$lines" || die "cannot make the feed of $log"
    printf '\n# EOF\n'
} >"$work/feed.log"
feed_lines=$(wc -l <"$work/feed.log")
if [ "$stopped" = 1 ]; then
    [ -r "$log.chk" ] || die "-s needs $log.chk (gpsd's regression output) to fill the spool"
    scripts/bench/continue-chk.py "$log.chk" 20 -20 >"$work/fill.chk"
fi
feed="exec cat $work/feed.log"
pace="all at once"
if [ "$speedup" -gt 0 ]; then
    # The receiver's pace: its lines over the seconds between its first and last TPV.
    rate=$(python3 - "$log" <<'PYTHON'
import datetime, json, sys
log = sys.argv[1]
times = [json.loads(line)["time"] for line in open(log + ".chk") if '"class":"TPV"' in line and '"time"' in line]
seconds = (datetime.datetime.fromisoformat(times[-1].replace("Z", "+00:00"))
           - datetime.datetime.fromisoformat(times[0].replace("Z", "+00:00"))).total_seconds()
print(f"{sum(1 for _ in open(log, 'rb')) / seconds:.4f}")
PYTHON
    ) || die "-x needs $log.chk (gpsd's regression output) for the receiver's pace"
    rate=$(python3 -c "print(round($rate * $speedup, 2))")
    # Writes the feed in slices every 10 ms, so gpsd reads RATE lines per second.
    feed="exec python3 $PWD/scripts/bench/pace-feed.py $rate $work/feed.log"
    pace="paced at ${speedup}x the receiver ($rate lines/s)"
    timeout=${TIMEOUT:-$(python3 -c "print(int($feed_lines / $rate) + 60)")}
else
    timeout=${TIMEOUT:-$((60 + 30 * copies))}
fi

# One phase of one client: gpsd on a socat source running SOURCE_COMMAND and the client under rusage.py, until
# the client's end of the replay (the floor's: 0.2 s after the source's) or, when WALL_LIMIT_US is given, for that
# many microseconds.
# Writes $dir/{out,err,time,wall_us}.
run_phase() {
    local dir=$1 client=$2 source_command=$3 wall_limit_us=$4 feed_port gpsd_port started elapsed_us time_pid pid
    local feed_pid fed_us=""
    mkdir -p "$dir"
    feed_port=$(free_port)
    gpsd_port=$(free_port)
    socat -u "SYSTEM:$source_command" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" 2>"$dir/socat.err" &
    feed_pid=$!
    pids+=("$feed_pid")
    for _ in $(seq 100); do listening "$feed_port" && break; sleep 0.1; done
    listening "$feed_port" || die "socat did not start listening on 127.0.0.1:$feed_port: $(cat "$dir/socat.err")"
    /usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$dir/ctl.sock" "tcp://127.0.0.1:$feed_port" 2>"$dir/gpsd.err" &
    pids+=("$!")
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && break; sleep 0.1; done
    (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null ||
        die "gpsd did not start listening on 127.0.0.1:$gpsd_port: $(tail -n 3 "$dir/gpsd.err")"
    local command=()
    case $client in
    waymark | floor)
        printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\nruntime_dir = "%s/run"\n' "$dir" "$dir" "$dir" \
            >"$dir/waymark.toml"
        if [ "$stopped" = 1 ]; then
            # Filled by the agent's own writes, as a board's state is (a copy would leave its pages in the page
            # cache as the copy wrote them, which this kernel may count whole when the agent writes them again),
            # then synced: the agent's first sync would otherwise write the fill's pages, and count them.
            "$waymark" replay "$work/fill.chk" --spool --config "$dir/waymark.toml" 2>"$dir/fill.err" ||
                die "cannot fill the spool for -s: $(tail -n 3 "$dir/fill.err")"
            sync -f "$dir"
        fi
        local binary=$waymark
        [ "$client" = floor ] && binary=$floor
        command=("$binary" run --print --config "$dir/waymark.toml" --gpsd "127.0.0.1:$gpsd_port")
        ;;
    c) command=("$work/minimal-client" 127.0.0.1 "$gpsd_port") ;;
    gpspipe) command=(gpspipe -w "127.0.0.1:$gpsd_port") ;;
    python) command=(/usr/bin/python3 scripts/bench/minimal-client.py 127.0.0.1 "$gpsd_port") ;;
    esac
    started=$(now_us)
    # A non-interactive shell starts background jobs with SIGINT ignored; the clients get the default back.
    env --default-signal=INT /usr/bin/python3 scripts/bench/rusage.py "$dir/time" "${command[@]}" \
        >"$dir/out" 2>"$dir/err" &
    time_pid=$!
    pids+=("$time_pid")
    pid=$(child_of "$time_pid")
    [ -n "$pid" ] || die "$client did not start: $(cat "$dir/err" "$dir/time" 2>/dev/null)"
    local hwm=0 key value unit
    while :; do
        elapsed_us=$(($(now_us) - started))
        # Its peak RSS: wait4's maximum would count the Python that forked it, before its exec.
        while read -r key value unit; do [ "$key" = VmHWM: ] && hwm=$value; done 2>/dev/null <"/proc/$pid/status" || true
        if [ -n "$wall_limit_us" ]; then
            [ "$elapsed_us" -lt "$wall_limit_us" ] || break
            kill -0 "$pid" 2>/dev/null || die "$client exited before it was stopped: $(tail -n 5 "$dir/err")"
        else
            # c and python end by themselves at the receiver's end; the others say so in their output.
            case $client in
            waymark) tail -c 4096 "$dir/out" | grep -q '"code":"no_device"' && break ;;
            gpspipe) tail -c 4096 "$dir/out" | grep -q '"activated":0' && break ;;
            floor)
                if ! kill -0 "$feed_pid" 2>/dev/null; then
                    fed_us=${fed_us:-$elapsed_us}
                    [ $((elapsed_us - fed_us)) -lt 200000 ] || break
                fi
                ;;
            esac
            if ! kill -0 "$pid" 2>/dev/null; then
                case $client in
                c | python) break ;;
                *) die "$client exited early: $(tail -n 5 "$dir/err")" ;;
                esac
            fi
            [ "$elapsed_us" -lt $((timeout * 1000000)) ] ||
                die "$client: no end of the replay after ${timeout}s: $(tail -n 2 "$dir/err")"
        fi
        sleep 0.1
    done
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 200); do kill -0 "$time_pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$time_pid" 2>/dev/null && die "$client did not stop within 10 s of SIGINT"
    echo "$elapsed_us" >"$dir/wall_us"
    echo "$hwm" >"$dir/hwm_kb"
    stop_all
}

# The messages an agent judged, from a counters line ("location=774 out_of_order=2319 sky=3152 …"): the
# counters of a message's fate, not those counted beside it (trip, spool_commits, time_base_reset, …).
judged() {
    tr ' ' '\n' | awk -F= '
        $1 ~ /^(duplicate_epoch|sky|attitude|ignored_class|unparsable|location|no_fix|no_time|invalid_position)$/ ||
        $1 ~ /^(stale|out_of_order|repeated_epoch|time_jump|inaccurate|paused|filtered_[a-z_]+)$/ { n += $2 }
        END { print n + 0 }'
}
# One counter's value from a counters line (0 when it is not there).
counter() { tr ' ' '\n' | awk -F= -v name="$1" '$1 == name { n = $2 } END { print n + 0 }'; }
# cpu_s, rss_kb, voluntary switches, file-system output bytes of a phase in DIR: rusage.py's line, and the
# peak RSS seen while it ran.
time_figures() { awk -v hwm="$(cat "$1/hwm_kb")" '{printf "%.6f\t%d\t%d\t%d\n", $1 + $2, hwm, $4, $6 * 512}' "$1/time"; }

read -r -a clients <<<"${CLIENTS:-waymark c gpspipe python}"
[[ " ${clients[*]} " == *" gpspipe "* ]] || die "CLIENTS=${CLIENTS:-}: gpspipe must be among them (its count is the round's TPVs)"
if [[ " ${clients[*]} " == *" floor "* ]]; then
    [ "$speedup" -gt 0 ] || die "the floor runs paced only (-x): it cannot tell when a replay all at once ends"
    [ -x "$floor" ] || die "FLOOR=$floor: the floor's binary, from scripts/bench/build-floor.sh"
fi
results="$work/results.tsv"
printf 'round\tphase\tclient\tcpu_s\trss_kb\tvoluntary\twritten\twall_us\ttpv\tcommits\n' >"$results"
gpsd_version=$(/usr/sbin/gpsd -V 2>&1 | awk '{print $2}')
start="a fresh state directory"
[ "$stopped" = 1 ] && start="the state of a replay of 20 copies, stopped (-s)"
echo "log: $log x $copies ($feed_lines lines, $pace), $rounds rounds, waymark on $start; gpsd $gpsd_version" >&2
for round in $(seq "$rounds"); do
    tpv=""
    kept=""
    judged_live=""
    counts=()
    summary="round $round:"
    for index in "${!clients[@]}"; do
        client=${clients[$(((index + round - 1) % ${#clients[@]}))]}
        dir="$work/round$round/$client"
        run_phase "$dir/replay" "$client" "sleep 1; $feed" ""
        wall_us=$(cat "$dir/replay/wall_us")
        commits=0
        case $client in
        gpspipe)
            # gpspipe relays gpsd's lines as they come: its count is the round's TPVs.
            tpv=$(grep -c '"class":"TPV"' "$dir/replay/out" || true)
            capture="$dir/replay/out"
            ;;
        c | python)
            count=$(sed -n 's/.* \([0-9]*\) tpvs.*/\1/p' "$dir/replay/err" | tail -n 1)
            [ -n "$count" ] || die "round $round: $client read no TPV: $(tail -n 3 "$dir/replay/err")"
            counts+=("$client $count")
            ;;
        waymark)
            counters=$(grep -o 'counters=[^[]*' "$dir/replay/err" | tail -n 1 | sed 's/^counters=//' || true)
            [ -n "$counters" ] || die "round $round: waymark said no counters: $(tail -n 3 "$dir/replay/err")"
            commits=$(counter spool_commits <<<"$counters")
            judged_live=$(judged <<<"$counters")
            kept=" ($(counter location <<<"$counters") locations delivered, $(counter out_of_order <<<"$counters")"
            kept+=" fixes out of order)"
            ;;
        esac
        printf '%s\treplay\t%s\t%s\t%s\t@TPV@\t%s\n' "$round" "$client" "$(time_figures "$dir/replay")" \
            "$wall_us" "${commits:-0}" >>"$work/round.tsv"
        if [ "$speedup" -eq 0 ]; then
            # A receiver that is connected and silent; the shell ends by itself if anything outlives the script.
            run_phase "$dir/idle" "$client" "exec sleep $((wall_us / 1000000 + 60))" "$wall_us"
            printf '%s\tidle\t%s\t%s\t%s\t@TPV@\t0\n' "$round" "$client" "$(time_figures "$dir/idle")" \
                "$wall_us" >>"$work/round.tsv"
        fi
        summary+=" $client $((wall_us / 1000)) ms"
    done
    [ -n "$tpv" ] && [ "$tpv" -gt 0 ] || die "round $round: gpspipe saw no TPV"
    for entry in "${counts[@]}"; do
        [ "${entry#* }" = "$tpv" ] ||
            echo "round $round: WARNING ${entry% *} read ${entry#* } TPVs, gpspipe $tpv (gpsd dropped some for it)" >&2
    done
    # Every row of the round gets the round's TPV count (the same feed to each client).
    sed "s/@TPV@/$tpv/" "$work/round.tsv" >>"$results"
    rm "$work/round.tsv"
    if [ -n "$judged_live" ]; then
        expected=$({ "$waymark" replay "$capture" 2>&1 >/dev/null || true; } | tail -n 1 | sed 's/^.*: //' | judged)
        if [ "$judged_live" != "$expected" ]; then
            echo "round $round: WARNING waymark judged $judged_live messages live, $expected in the replay of" \
                "gpspipe's capture: it did not keep up and gpsd dropped messages for it" >&2
        fi
        kept=", waymark judged $judged_live of $expected$kept"
    fi
    echo "$summary; $tpv TPVs$kept" >&2
done

python3 - "$results" "$log" "$copies" "$rounds" "$pace" "$speedup" <<'PYTHON'
import csv, statistics, sys

path, log, copies, rounds, pace, speedup = sys.argv[1:]
rows = list(csv.DictReader(open(path), delimiter="\t"))
paced = speedup != "0"
labels = {"waymark": "waymark run --print", "floor": "waymark, work taken out", "c": "C libgps loop",
          "gpspipe": "gpspipe -w", "python": "Python gps client"}

def rows_of(client, phase):
    return [r for r in rows if r["client"] == client and r["phase"] == phase]

def med(values):
    return statistics.median(values) if values else float("nan")

figures = {}
for client in labels:
    replay = rows_of(client, "replay")
    idle = {r["round"]: r for r in rows_of(client, "idle")}
    per_tpv = lambda r, field: float(r[field]) / float(r["tpv"])
    figures[client] = dict(
        cpu=med([float(r["cpu_s"]) for r in replay]),
        us=med([per_tpv(r, "cpu_s") * 1e6 for r in replay]),
        marginal=med([(float(r["cpu_s"]) - float(idle[r["round"]]["cpu_s"])) * 1e6 / float(r["tpv"])
                      for r in replay]) if idle else None,
        rss=med([float(r["rss_kb"]) / 1024 for r in replay]),
        switches=med([per_tpv(r, "voluntary") for r in replay]),
        written=med([float(r["written"]) / 1e6 for r in replay]),
        commits=med([per_tpv(r, "commits") for r in replay]),
    )
def paired(client, peer, value):
    """waymark's figure over the peer's, round by round (the two ran in the same round): min, median, max."""
    mine = {r["round"]: r for r in rows_of(client, "replay")}
    theirs = {r["round"]: r for r in rows_of(peer, "replay")}
    ratios = sorted(value(mine[k]) / value(theirs[k]) for k in mine if k in theirs and value(theirs[k]) > 0)
    return (ratios[0], statistics.median(ratios), ratios[-1]) if ratios else None

def marginal_of(client):
    idle = {r["round"]: float(r["cpu_s"]) for r in rows_of(client, "idle")}
    return lambda r: float(r["cpu_s"]) - idle[r["round"]]

for client in labels:
    figures[client]["idle"] = med([float(r["cpu_s"]) for r in rows_of(client, "idle")]) if not paced else None
tpv = med([float(r["tpv"]) for r in rows])
print(f"log {log} x {copies}, fed {pace}: median of {rounds} rounds, {tpv:.0f} TPVs a replay, each client in turn")
print()
header = f"{'':<25}{'CPU s':>8}{'us/TPV':>9}" + ("" if paced else f"{'idle s':>8}{'marginal':>10}") + \
    f"{'peak RSS MB':>13}{'vol. sw./TPV':>14}{'written MB':>12}"
print(header)
for client, label in labels.items():
    if not rows_of(client, "replay"):
        continue  # not measured (CLIENTS)
    f = figures[client]
    line = f"{label:<25}{f['cpu']:>8.3f}{f['us']:>9.2f}"
    if not paced:
        line += f"{f['idle']:>8.3f}{f['marginal']:>10.2f}"
    line += f"{f['rss']:>13.1f}{f['switches']:>14.3f}{f['written']:>12.2f}"
    print(line)
print()
w = figures["waymark"]
span = lambda t: f"{t[1]:.2f}x ({t[0]:.2f} to {t[2]:.2f})" if t else "n/a"
print("waymark against each peer, round by round (median, and min to max over the rounds):")
for peer in ("c", "gpspipe", "python"):
    text = f"  / {labels[peer]}: CPU {span(paired('waymark', peer, lambda r: float(r['cpu_s'])))}"
    if not paced:
        w_marginal, p_marginal = marginal_of("waymark"), marginal_of(peer)
        mine = {r["round"]: r for r in rows_of("waymark", "replay")}
        ratios = sorted(w_marginal(mine[r["round"]]) / p_marginal(r) for r in rows_of(peer, "replay")
                        if r["round"] in mine and p_marginal(r) > 0)
        text += f", marginal {span((ratios[0], statistics.median(ratios), ratios[-1]) if ratios else None)}"
    print(text)
if rows_of("floor", "replay"):
    print(f"  the floor (waymark with its work taken out) / {labels['c']}: "
          f"CPU {span(paired('floor', 'c', lambda r: float(r['cpu_s'])))}")
c = figures["c"]
# Issue 44's target: the C loop's switches plus 4 a spool commit (its fdatasync's waits, which the C loop has not).
allowance = c['switches'] + 4 * w['commits']
print(f"waymark's voluntary switches per TPV {w['switches']:.3f} against an allowance of {allowance:.3f} (the C "
      f"loop's {c['switches']:.3f} plus 4 a spool commit, {w['commits']:.4f} commits per TPV): "
      f"{w['switches'] - allowance:+.3f}")
PYTHON
