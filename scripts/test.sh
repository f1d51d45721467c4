#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, then `swift test` (real gpsd processes included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="$PATH:/opt/swift/usr/bin"
swift build --build-tests
swift test --skip-build "$@"
