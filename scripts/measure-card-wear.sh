#!/usr/bin/env bash
# What the SD card receives per location at 1 Hz: every byte the file system sends to the device, counted by the
# block layer (/sys/block/loopN/stat), with the ext4 journal, inodes and the -shm's write-back that write_bytes
# (scripts/measure-spool-wear.sh) does not see. Each run has an ext4 file system of its own (4 KB blocks, mounted
# noatime, as Raspberry Pi OS mounts its card) on a loop device, so runs go side by side.
#   sudo scripts/measure-card-wear.sh [SECONDS]     (default 400: that much of the drive, played at 1 location a second)
# Two starts are measured for each build:
#   after a stop  the spool already holds 20 drives (replayed as fast as possible, then stopped): a day's start;
#   first start   a fresh state directory: the first start of a new board.
# The paced part is the first SECONDS of the Regensburg drive (the fill's 20 loops come before it) at twice its pace
# (a fix every 2 s: one location and one commit a second), then the agent stops and everything is synced: the bytes
# include the start, the stop and the kernel's write-back. WAYMARK=PATH measures that build, WAYMARK_BEFORE=PATH
# another beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-400}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "SECONDS: expected a positive number, got $seconds" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root: it makes and mounts file systems on loop devices" >&2; exit 1; }
export PATH="$PATH:/opt/swift/usr/bin"
if [ -z "${WAYMARK:-}" ]; then
    # Built as the user sudo came from, so the build directory stays theirs.
    WAYMARK=$(${SUDO_USER:+sudo -u "$SUDO_USER" --preserve-env=PATH} scripts/build-release.sh | tail -n 1)
fi
[ -x "$WAYMARK" ] || { echo "$WAYMARK: no binary" >&2; exit 1; }
waymark=$(realpath "$WAYMARK")
[ "$seconds" -le 780 ] || echo "SECONDS: the drive has about 780 s at twice its pace; measuring all of it" >&2
work=$(mktemp -d /var/tmp/waymark-card.XXXXXX)
pids=()
cleanup() {
    set +e
    for pid in "${pids[@]}"; do pkill -P "$pid"; kill "$pid"; done 2>/dev/null
    wait 2>/dev/null
    for mount in "$work"/*/mnt; do mountpoint -q "$mount" && { umount "$mount" || umount -l "$mount"; }; done
    rm -rf "$work"
}
trap cleanup EXIT

# The drives: the measured stretch as recorded, and 20 loops before it to fill a spool.
drive=Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk
scripts/bench/continue-chk.py "$drive" 20 -20 >"$work/fill.chk"
# The drive is a fix every 2 s: SECONDS at twice the pace is 2 × SECONDS of it.
scripts/bench/continue-chk.py "$drive" 1 0 $((2 * seconds)) >"$work/paced.chk"

# card DIRECTORY: a file system of its own on DIRECTORY/mnt, its loop device in $device.
source scripts/bench/card.sh

# run NAME SLUG BINARY FILL: one file system, one start; prints its line when done.
run() {
    local name=$1 dir="$work/$2" binary=$3 fill=$4 device
    card "$dir"
    printf '[agent]\nstate_dir = "%s/mnt/state"\nlog_dir = "%s/mnt/logs"\n' "$dir" "$dir" > "$dir/waymark.toml"
    if [ "$fill" = yes ]; then
        "$binary" replay "$work/fill.chk" --spool --config "$dir/waymark.toml" 2>"$dir/fill.stderr"
    fi
    sync -f "$dir/mnt/"
    local wal_before sectors journal
    wal_before=$(stat -c %s "$dir/mnt/state/spool.sqlite-wal" 2>/dev/null || echo 0)
    sectors=$(awk '{print $7}' "/sys/block/$device/stat")
    journal=$(awk 'NR == 1 {print $1}' "/proc/fs/jbd2/$device-8/info")
    "$binary" replay "$work/paced.chk" --spool --config "$dir/waymark.toml" --speed 2 2>"$dir/stderr"
    sync -f "$dir/mnt/"
    sleep 1
    sectors=$(( $(awk '{print $7}' "/sys/block/$device/stat") - sectors ))
    journal=$(( $(awk 'NR == 1 {print $1}' "/proc/fs/jbd2/$device-8/info") - journal ))
    python3 - "$name" "$dir/stderr" "$sectors" "$journal" "$wal_before" <<'PY'
import re, sys
name, stderr = sys.argv[1], open(sys.argv[2]).read()
sectors, journal, wal = map(int, sys.argv[3:6])
locations = int(re.search(r"\blocation=(\d+)", stderr).group(1))
commits = int(re.search(r"\bspool_commits=(\d+)", stderr).group(1))
written = int(re.search(r"write_bytes=(\d+)", stderr).group(1))
print(f"{name:<32} {locations:>9} {commits:>7} {wal:>12} {sectors * 512 / locations:>12,.0f} "
      f"{written / locations:>15,.0f} {journal:>15}")
PY
    umount "$dir/mnt"
}

builds=("now:$waymark")
[ -n "${WAYMARK_BEFORE:-}" ] && builds+=("before:$(realpath "$WAYMARK_BEFORE")")
printf '%-32s %9s %7s %12s %12s %15s %15s\n' "run" "locations" "commits" "WAL at start" "card B/loc" \
    "write_bytes/loc" "journal commits"
for build in "${builds[@]}"; do
    run "${build%%:*}, after a stop" "${build%%:*}-stop" "${build#*:}" yes > "$work/${build%%:*}-stop.out" &
    pids+=($!)
    run "${build%%:*}, first start" "${build%%:*}-first" "${build#*:}" no > "$work/${build%%:*}-first.out" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
cat "$work"/*-stop.out "$work"/*-first.out
