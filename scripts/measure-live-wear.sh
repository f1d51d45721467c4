#!/usr/bin/env bash
# Flash wear at a fix a second, live: what the agent writes, and what its SD card receives, per location event on a
# day's drive after the first minutes. One real gpsd plays the Regensburg car drive at a fix a second, a receiver's
# epochs at their own times (Tests/waymarkTests/WearMeasurement.swift); the static release build runs with its
# default configuration (spool, day log, trip GPX; no network sink) on a spool that 20 earlier drives filled and a
# stop closed, as on a board every start but its first. Each run has an ext4 file system of its own for the state
# and log directories (4 KB blocks, mounted noatime, as Raspberry Pi OS mounts its card) on a loop device, and
# counts over a window that starts 20 s after the first location:
#   write_bytes  what the agent caused to be written (/proc/PID/io), the measure of issue 44's target (the test's
#                own files, the agent's runtime directory and the events `--print` writes for it to count are on a
#                tmpfs, /dev/shm, as a board's /run: not counted);
#   card         every byte the block layer sent to the device: the file system's journal and inodes too;
#   commits      the spool's commits a location over the whole run (the agent's counters at its stop).
# Beside it, each on a file system of its own and counted the same way, two floors (scripts/bench/commit-floor.py):
# programs that make nothing but durable commits of 300-byte lines (a location's) into a file already at its size,
#   floor 1 s    one line a second, committed as it comes (issue 44's "one durable commit a second");
#   floor 2 s    two lines every 2 s: the agent's own rhythm at 1 Hz, two fixes a commit.
#   sudo scripts/measure-live-wear.sh [WINDOW] [RUNS]     (default 300 s and 3 runs, one after the other:
#                                                          about 6 minutes a run)
# WAYMARK=PATH measures that build. scripts/measure-card-wear.sh measures at the card through `waymark replay` (a
# fix a second by the recording's clock, the stop and the start included), and a first start.
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-300}
runs=${2:-3}
[[ $window =~ ^[1-9][0-9]*$ && $window -le 380 ]] || { echo "WINDOW: 1 to 380 seconds, got $window" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS: expected a positive number, got $runs" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root: it makes and mounts file systems on loop devices" >&2; exit 1; }
export PATH="$PATH:/opt/swift/usr/bin"
# Built and run as the user sudo came from, so the build directories stay theirs (with this PATH: sudo's own
# secure_path has no Swift).
as_user() {
    if [ -n "${SUDO_USER:-}" ]; then
        local kept=TMPDIR,WAYMARK_MEASURE_WEAR,WAYMARK_BINARY,WAYMARK_WINDOW,WAYMARK_WEAR_DIR,WAYMARK_WEAR_DEVICE
        sudo -u "$SUDO_USER" --preserve-env="$kept" env "PATH=$PATH" "$@"
    else
        "$@"
    fi
}
scripts/install-deps.sh --bench >/dev/null
waymark=$(realpath "${WAYMARK:-$(as_user scripts/build-release.sh | tail -n 1)}")
[ -x "$waymark" ] || { echo "$waymark: no binary" >&2; exit 1; }
as_user swift build --build-tests >/dev/null
work=$(mktemp -d /var/tmp/waymark-live-wear.XXXXXX)
chmod 755 "$work"
floors=()
cleanup() {
    set +e
    for pid in "${floors[@]}"; do kill "$pid"; done 2>/dev/null
    wait 2>/dev/null
    for mount in "$work"/*/*/mnt; do mountpoint -q "$mount" && { umount "$mount" || umount -l "$mount"; }; done
    rm -rf "$work"
}
trap cleanup EXIT

# card DIRECTORY: a file system of its own on DIRECTORY/mnt, its loop device in $device.
source scripts/bench/card.sh

scripts/bench/continue-chk.py Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk 20 -20 >"$work/fill.chk"
for run in $(seq "$runs"); do
    dir="$work/run$run"
    card "$dir/agent"
    agent_device=$device
    # The state and log directories the test's configuration names (Fixtures.isolatedSections).
    printf '[agent]\nstate_dir = "%s/agent/mnt/state"\nlog_dir = "%s/agent/mnt/logs"\n' "$dir" "$dir" >"$dir/fill.toml"
    as_user "$waymark" replay "$work/fill.chk" --spool --config "$dir/fill.toml" 2>"$dir/fill.err" ||
        { echo "cannot fill the spool: $(tail -n 3 "$dir/fill.err")" >&2; exit 1; }
    sync -f "$dir/agent/mnt/"
    floors=()
    for period in 1 2; do
        card "$dir/floor$period"
        scripts/bench/commit-floor.py "$dir/floor$period/mnt" "$device" "$window" "$period" \
            >"$dir/floor$period.out" &
        floors+=($!)
    done
    WAYMARK_MEASURE_WEAR=1 WAYMARK_BINARY="$waymark" WAYMARK_WINDOW="$window" WAYMARK_WEAR_DIR="$dir/agent/mnt" \
        WAYMARK_WEAR_DEVICE="$agent_device" TMPDIR=/dev/shm as_user swift test --skip-build --filter WearMeasurement \
        >"$dir/test.out" 2>&1 || { grep -E "✘|error" "$dir/test.out" | head -n 10 >&2; exit 1; }
    failed=0
    for pid in "${floors[@]}"; do wait "$pid" || failed=1; done
    floors=()
    [ "$failed" = 0 ] || { echo "a floor failed: $(cat "$dir"/floor?.out)" >&2; exit 1; }
    line=$(grep "^wear " "$dir/test.out") ||
        { echo "the test printed no figures (skipped?): $(tail -n 5 "$dir/test.out")" >&2; exit 1; }
    for period in 1 2; do
        line+=" $(sed "s/^floor //; s/\([a-z]*\)=/floor${period}_\1=/g" "$dir/floor$period.out")"
    done
    echo "$line" | tee -a "$work/results" >&2
    umount "$dir/agent/mnt" "$dir/floor1/mnt" "$dir/floor2/mnt"
done

python3 - "$work/results" <<'PYTHON'
import re, statistics, sys

runs = [{k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", line)} for line in open(sys.argv[1])]
columns = ("write_bytes", "card", "commits", "floor 1 s: write_bytes", "card", "floor 2 s: write_bytes", "card")
print("Bytes a location (a line, for the floors), over the same window; commits a location over the agent's run")
print(f"{'run':>6} {'locations':>9}" + "".join(f" {name:>{max(len(name), 8)}}" for name in columns))
rows = []
for number, run in enumerate(runs, 1):
    row = [run["written"] / run["locations"], run["device"] / run["locations"],
           run["run_commits"] / run["run_locations"]]
    for period in (1, 2):
        row += [run[f"floor{period}_written"] / run[f"floor{period}_lines"],
                run[f"floor{period}_device"] / run[f"floor{period}_lines"]]
    rows.append(row)
    cells = "".join(f" {value:>{max(len(name), 8)},.{2 if name == 'commits' else 0}f}"
                    for name, value in zip(columns, row))
    print(f"{number:>6} {run['locations']:>9}{cells}")
medians = [statistics.median(row[index] for row in rows) for index in range(len(columns))]
print(f"{'median':>6} {'':>9}" + "".join(f" {value:>{max(len(name), 8)},.{2 if name == 'commits' else 0}f}"
                                         for name, value in zip(columns, medians)))
print(f"at the card, the agent against floor 1 s: {medians[1] / medians[4]:.2f}x; against floor 2 s: "
      f"{medians[1] / medians[6]:.2f}x")
PYTHON
