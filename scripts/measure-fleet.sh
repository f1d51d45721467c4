#!/usr/bin/env bash
# What [fleet] costs (docs/performance.md, "The fleet's status"), with the static release build:
#   1. a paused agent's wake-ups and CPU with [fleet] on (idle: its status retained, the MQTT keep-alive) next to
#      the same agent without, both on one real gpsd and a real mosquitto (PausedWakeupsMeasurement,
#      WAYMARK_FLEET=1), and the bytes of one status message;
#   2. the status messages an hour while driving: one agent with [fleet] at its defaults on the Regensburg drive
#      at its own pace (FleetStatusMeasurement), counted by a subscriber.
#
#   scripts/measure-fleet.sh [WINDOW_SECONDS] [ROUNDS] [DRIVE_SECONDS]      (defaults: 60, 3 and 600)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >/dev/null
swift build --build-tests >/dev/null
export WAYMARK_BINARY="${WAYMARK_BINARY:-$(scripts/build-release.sh)}"
WAYMARK_MEASURE_WAKEUPS=1 WAYMARK_FLEET=1 WAYMARK_WINDOW="${1:-60}" WAYMARK_ROUNDS="${2:-3}" \
    swift test --skip-build --filter PausedWakeupsMeasurement 2>&1 | grep -E "^round|^median|^status|✘|passed|failed"
WAYMARK_MEASURE_FLEET=1 WAYMARK_WINDOW="${3:-600}" \
    swift test --skip-build --filter FleetStatusMeasurement 2>&1 | grep -E "^status|^  tst|✘|passed|failed"
