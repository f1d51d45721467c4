#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, then `swift test` (real gpsd processes included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="$PATH:/opt/swift/usr/bin"
# The static release binary first: the tests check it (StaticBinaryTests) and find it up to date.
scripts/build-release.sh >/dev/null
swift build --build-tests
swift test --skip-build "$@"
