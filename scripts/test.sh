#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, then `swift test` (real gpsd processes included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
export PATH="$PATH:/opt/swift/usr/bin"
# The static release binary first: the tests check it (StaticBinaryTests) and find it up to date.
scripts/build-release.sh >/dev/null
# Waymark's own code builds without a warning: a new one fails the run (a fresh build, as CI's, sees all).
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
swift build --build-tests 2>&1 | tee "$build_log"
warnings=$(grep -E "^$PWD/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$build_log" | sort -u || true)
if [ -n "$warnings" ]; then
    echo "The build warns; Waymark's own code must build without warnings:" >&2
    echo "$warnings" >&2
    exit 1
fi
swift test --skip-build "$@"
