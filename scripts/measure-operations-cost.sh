#!/usr/bin/env bash
# What the metrics, the status file and the health checks cost a driving agent: three agents on ONE real gpsd
# replaying the Regensburg drive at its own pace (1 fix a second): the peer (no textfile, a tick an hour, never
# asked), one writing the metrics every WAYMARK_METRICS_INTERVAL seconds (default 15) to a tmpfs, one asked for
# its status every second. CPU is each thread's time on a CPU (/proc/PID/task/*/schedstat, nanoseconds), all
# sampled over the same windows. Prints each round and the medians, and each variant against the peer.
#
# With "quiet", nothing asks for a status: the agents run without a `waymark status` process started beside
# them every second, as on a board nobody is watching.
#
# Then the floor any such write has on this machine: the same atomic rewrite of a file of the textfile's size,
# from C, with the caches cold (scripts/bench/replace-floor.c).
#
#   scripts/measure-operations-cost.sh [WINDOW_SECONDS] [ROUNDS] [quiet]      (defaults: 60 and 3)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >/dev/null
export WAYMARK_MEASURE_OPERATIONS=1 WAYMARK_WINDOW="${1:-60}" WAYMARK_ROUNDS="${2:-3}"
[ "${3:-}" = quiet ] && export WAYMARK_ASK_STATUS=0
swift build --build-tests >/dev/null
# The agent as it goes on the board: the static release build.
export WAYMARK_BINARY="${WAYMARK_BINARY:-$(scripts/build-release.sh)}"
swift test --skip-build --filter OperationsCostMeasurement 2>&1 | grep -E "^round|^median|own account|✘|passed|failed"
floor=$(mktemp -d)
trap 'rm -rf "$floor"' EXIT
cc -O2 -Wall -o "$floor/replace-floor" scripts/bench/replace-floor.c
# The textfile is about 7 kB.
"$floor/replace-floor" 60 7000
