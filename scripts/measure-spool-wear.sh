#!/usr/bin/env bash
# SD-card wear of the spool and the file sink (issue 7): a long drive replayed as fast as possible through
# `waymark replay --spool` with the file sink on, once at the default [spool] commit_interval and once
# committing every event alone ("0s"), one after the other on the same disk. For each it prints what the
# process wrote to storage per location event (write_bytes of /proc/self/io, database, WAL and logs
# together), and, from strace, the fsync/fdatasync calls on each file, per second of the run. What reaches the card,
# the file system's journal and inodes included, is scripts/measure-card-wear.sh's.
#   scripts/measure-spool-wear.sh [LOOPS]     (default 20: the 26-minute Regensburg drive 20 times, 8.7 hours)
# Set SPEED=N to pace the replay at N times the recorded speed instead (commits then hold N seconds of drive),
# and CUT=S to keep only the first S seconds of the drive: `CUT=200 SPEED=1 scripts/measure-spool-wear.sh 1`
# is what a vehicle's board writes at one commit a second, in two runs of 200 s. INTERVAL=5s measures another
# commit_interval in place of the default.
# Each run also says where its write_bytes come from, file by file: the kernel counts a 4 KB page each time a
# write makes a clean page of the page cache dirty (so a page synced and appended to again counts again), and
# the script replays the traced write/pwrite64 calls and syncs through that rule. What the rule does not see is
# the rest: pages dirtied through memory maps (SQLite's -shm, written back by the kernel every half minute or so)
# and pages the kernel wrote back between two writes of the process. Paced and cut (SPEED and CUT), each run also
# copies the WAL halfway and says which tables' pages its commits write (scripts/bench/wal-frames.py).
set -euo pipefail
cd "$(dirname "$0")/.."
loops=${1:-20}
export PATH="$PATH:/opt/swift/usr/bin"
command -v strace >/dev/null || { echo "strace is missing: apt-get install -y strace" >&2; exit 1; }
# WAYMARK=PATH measures another build (an earlier commit's) with the same script.
waymark=${WAYMARK:-$(scripts/build-release.sh)}
work=$(mktemp -d /var/tmp/waymark-wear.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The drive, LOOPS times in a row: every time in the capture moved on by one drive and a minute per loop.
scripts/bench/continue-chk.py Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk "$loops" 0 "${CUT:-0}" \
    >"$work/drive.chk"

run() {
    local name=$1 interval=$2 dir="$work/$1"
    mkdir -p "$dir"
    printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\n[spool]\ncommit_interval = "%s"\n' \
        "$dir" "$dir" "$interval" > "$dir/waymark.toml"
    local started ended snapshot=""
    started=$(date +%s.%N)
    # Paced and cut, the WAL is copied halfway through, for the pages its commits write (scripts/bench/wal-frames.py).
    if [ -n "${SPEED:-}" ] && [ -n "${CUT:-}" ]; then
        mkdir -p "$dir/snapshot"
        (sleep "$(python3 -c "print($CUT * $loops / $SPEED / 2)")" &&
            cp "$dir/state/spool.sqlite" "$dir/state/spool.sqlite-wal" "$dir/snapshot/") &
        snapshot=$!
    fi
    strace -f -y -qq -e trace=fsync,fdatasync,write,pwrite64 -o "$dir/strace" \
        "$waymark" replay "$work/drive.chk" --spool --config "$dir/waymark.toml" ${SPEED:+--speed "$SPEED"} \
        2>"$dir/stderr"
    ended=$(date +%s.%N)
    if [ -n "$snapshot" ]; then
        { wait "$snapshot" && python3 scripts/bench/wal-frames.py "$dir/snapshot" | sed 's/^/  WAL: /'; } ||
            echo "  WAL: not read (no copy of it, or no complete commit in the copy)"
    fi
    python3 - "$name" "$interval" "$dir" "$started" "$ended" <<'PY'
import collections, re, sys
name, interval, dir, started, ended = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
stderr = open(dir + "/stderr").read()
locations = int(re.search(r"\blocation=(\d+)", stderr).group(1))
commits = int(re.search(r"\bspool_commits=(\d+)", stderr).group(1))
written = int(re.search(r"write_bytes=(\d+)", stderr).group(1))
syncs = collections.Counter()
for line in open(dir + "/strace"):
    m = re.search(r"f(?:data)?sync\(\d+<([^>]+)>", line)
    if m:
        path = m.group(1).replace(dir + "/", "")
        syncs[re.sub(r"events/\d{4}-\d\d-\d\d\.jsonl", "events/DAY.jsonl", re.sub(r"trips/.*\.gpx.*", "trips/*.gpx", path))] += 1
def short(path):
    path = path.replace(dir + "/", "")
    return re.sub(r"events/\d{4}-\d\d-\d\d\.jsonl", "events/DAY.jsonl", re.sub(r"trips/.*\.gpx.*", "trips/*.gpx", path))
# Pages the process's writes dirtied, by the kernel's rule: a page counts when a write finds it clean.
dirty, pages, data, ends = collections.defaultdict(set), collections.Counter(), collections.Counter(), {}
for line in open(dir + "/strace"):
    m = re.search(r"(pwrite64|write)\(\d+<([^>]+)>, .*?, (\d+)(?:, (\d+))?\) += (\d+)", line)
    if m and m.group(2).startswith(dir + "/") and int(m.group(5)) > 0:
        path, count = m.group(2), int(m.group(5))
        offset = int(m.group(4)) if m.group(1) == "pwrite64" else ends.get(path, 0)
        ends[path] = offset + count if m.group(1) == "write" else ends.get(path, 0)
        data[short(path)] += count
        for page in range(offset // 4096, (offset + count - 1) // 4096 + 1):
            if page not in dirty[path]:
                dirty[path].add(page)
                pages[short(path)] += 4096
    m = re.search(r"f(?:data)?sync\(\d+<([^>]+)>", line)
    if m:
        dirty[m.group(1)].clear()
seconds = ended - started
print(f"{name}: commit_interval={interval}: {locations} location events, {commits} commits, {seconds:.1f} s")
print(f"  write_bytes {written} = {written / locations:.0f} bytes per location event, of which:")
for path, count in pages.most_common():
    print(f"    {path}: {count / locations:.0f} ({data[path] / locations:.0f} bytes written by write/pwrite64)")
print(f"    the rest (memory maps: SQLite's -shm; pages written back between writes): "
      f"{(written - sum(pages.values())) / locations:.0f}")
for path, count in sorted(syncs.items()):
    print(f"  fsync {path}: {count} ({count / seconds:.2f} per second)")
print(f"RESULT {name} {written / locations:.1f} {max(syncs.values()) / seconds:.3f}")
PY
}
run group "${INTERVAL:-1s}" | tee "$work/group.txt"
run each "0s" | tee "$work/each.txt"
python3 - "$work/group.txt" "$work/each.txt" <<'PY'
import sys
values = [line.split() for path in sys.argv[1:] for line in open(path) if line.startswith("RESULT")]
group, each = float(values[0][2]), float(values[1][2])
print(f"bytes per location event: group commit {group:.0f}, each event alone {each:.0f}: ratio {group / each:.3f}")
PY
