#!/usr/bin/env bash
# Flash wear at a fix a second, live: what the agent writes, and what its SD card receives, per location event on a
# day's drive after the first minutes. One real gpsd plays the Regensburg car drive at a fix a second, a receiver's
# epochs at their own times (Tests/waymarkTests/WearMeasurement.swift); the static release build runs with its
# default configuration (spool, day log, trip GPX; no network sink) on a spool that 20 earlier drives filled and a
# stop closed, as on a board every start but its first. Each run has an ext4 file system of its own for the state
# and log directories (4 KB blocks, mounted noatime, as Raspberry Pi OS mounts its card) on a loop device, and
# counts over a window that starts 20 s after the first location:
#   write_bytes  what the agent caused to be written (/proc/PID/io), the measure of issue 44's target;
#   card         every byte the block layer sent to the device: the file system's journal and inodes too;
#   commits      the spool's commits a location over the whole run (the agent's counters at its stop).
# Beside it, on a file system of its own, the floor (scripts/bench/commit-floor.py) makes one durable commit a
# second of one location's line (300 bytes) into a file already at its size, and is counted the same way: what any
# program that commits each fix of a 1 Hz receiver as it comes pays, whatever it is written in.
#   sudo scripts/measure-live-wear.sh [WINDOW] [RUNS]     (default 300 s and 3 runs, one after the other:
#                                                          about 6 minutes a run)
# WAYMARK=PATH measures that build. scripts/measure-card-wear.sh measures the same at the card through
# `waymark replay` (a fix a second by the recording's clock, the stop and the start included), and a first start.
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-300}
runs=${2:-3}
[[ $window =~ ^[1-9][0-9]*$ && $window -le 380 ]] || { echo "WINDOW: 1 to 380 seconds, got $window" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS: expected a positive number, got $runs" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root: it makes and mounts file systems on loop devices" >&2; exit 1; }
export PATH="$PATH:/opt/swift/usr/bin"
# Built and run as the user sudo came from, so the build directories stay theirs.
as_user() {
    if [ -n "${SUDO_USER:-}" ]; then
        sudo -u "$SUDO_USER" \
            --preserve-env=PATH,WAYMARK_MEASURE_WEAR,WAYMARK_BINARY,WAYMARK_WINDOW,WAYMARK_WEAR_DIR,WAYMARK_WEAR_DEVICE "$@"
    else
        "$@"
    fi
}
scripts/install-deps.sh --bench >/dev/null
waymark=$(realpath "${WAYMARK:-$(as_user scripts/build-release.sh | tail -n 1)}")
[ -x "$waymark" ] || { echo "$waymark: no binary" >&2; exit 1; }
as_user swift build --build-tests >/dev/null
work=$(mktemp -d /var/tmp/waymark-live-wear.XXXXXX)
cleanup() {
    set +e
    for mount in "$work"/*/mnt "$work"/*/floor/mnt; do mountpoint -q "$mount" && { umount "$mount" || umount -l "$mount"; }; done
    rm -rf "$work"
}
trap cleanup EXIT

scripts/bench/continue-chk.py Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk 20 -20 >"$work/fill.chk"
# card DIRECTORY: a 2 GB ext4 file system of its own mounted on DIRECTORY/mnt; prints its loop device's name.
card() {
    mkdir -p "$1/mnt"
    truncate -s 2G "$1/card.img"
    mkfs.ext4 -q -F -b 4096 "$1/card.img"
    mount -o loop,noatime "$1/card.img" "$1/mnt"
    [ -z "${SUDO_USER:-}" ] || chown "$SUDO_USER" "$1/mnt" "$1"
    basename "$(findmnt -n -o SOURCE "$1/mnt")"
}
for run in $(seq "$runs"); do
    dir="$work/run$run"
    device=$(card "$dir")
    floor_device=$(card "$dir/floor")
    # The state and log directories the test's configuration names (Fixtures.isolatedSections).
    printf '[agent]\nstate_dir = "%s/mnt/state"\nlog_dir = "%s/mnt/logs"\n' "$dir" "$dir" >"$dir/fill.toml"
    as_user "$waymark" replay "$work/fill.chk" --spool --config "$dir/fill.toml" 2>"$dir/fill.err" ||
        { echo "cannot fill the spool: $(tail -n 3 "$dir/fill.err")" >&2; exit 1; }
    sync -f "$dir/mnt/"
    scripts/bench/commit-floor.py "$dir/floor/mnt" "$floor_device" "$window" >"$dir/floor.out" &
    floor=$!
    WAYMARK_MEASURE_WEAR=1 WAYMARK_BINARY="$waymark" WAYMARK_WINDOW="$window" WAYMARK_WEAR_DIR="$dir/mnt" \
        WAYMARK_WEAR_DEVICE="$device" as_user swift test --skip-build --filter WearMeasurement >"$dir/test.out" 2>&1 ||
        { grep -E "✘|error" "$dir/test.out" | head -n 10 >&2; exit 1; }
    wait "$floor" || { echo "the floor failed" >&2; exit 1; }
    echo "$(grep "^wear " "$dir/test.out") $(sed 's/^floor /floor_/; s/ / floor_/g' "$dir/floor.out")" |
        tee -a "$work/results" >&2
    umount "$dir/mnt" "$dir/floor/mnt"
done

python3 - "$work/results" <<'PYTHON'
import re, statistics, sys

runs = [{k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", line)} for line in open(sys.argv[1])]
print("The agent per location (a location a second); the floor per commit (a commit a second), side by side")
print(f"{'run':>6} {'locations':>9} {'write_bytes/loc':>15} {'card B/loc':>10} {'commits/loc':>11}"
      f" {'floor write_bytes':>17} {'floor card':>10} {'card / floor':>12}")
rows = []
for number, run in enumerate(runs, 1):
    row = (run["written"] / run["locations"], run["device"] / run["locations"],
           run["run_commits"] / run["run_locations"], run["floor_written"] / run["floor_commits"],
           run["floor_device"] / run["floor_commits"])
    rows.append(row + (row[1] / row[4],))
    print(f"{number:>6} {run['locations']:>9} {row[0]:>15,.0f} {row[1]:>10,.0f} {row[2]:>11.2f}"
          f" {row[3]:>17,.0f} {row[4]:>10,.0f} {rows[-1][5]:>12.2f}")
medians = [statistics.median(r[i] for r in rows) for i in range(6)]
print(f"{'median':>6} {'':>9} {medians[0]:>15,.0f} {medians[1]:>10,.0f} {medians[2]:>11.2f}"
      f" {medians[3]:>17,.0f} {medians[4]:>10,.0f} {medians[5]:>12.2f}")
PYTHON
