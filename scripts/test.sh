#!/usr/bin/env bash
# Runs the whole test suite: installs what it needs, then `swift test` (real gpsd processes included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# The documentation's links and the sections that comments and messages quote resolve (a second or two).
scripts/check-docs-links.py
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
status=0
swift test --skip-build "$@" || status=$?
# Every reader under libFuzzer and AddressSanitizer for a short while (docs/development.md, "Fuzzing"): a crash, a
# hang or a broken round trip fails the run. After the tests, not beside them: its instrumented build and the
# fuzzers take both cores. WAYMARK_FUZZ_SECONDS per target (15; 0 skips it).
fuzz_seconds=${WAYMARK_FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" != 0 ]; then
    scripts/fuzz.sh --smoke "$fuzz_seconds" || status=1
fi
# Then the Debian package's acceptance (deploy/test-package.sh: lintian, dpkg -i/-r/-P, the installed agent under
# strace), on the same release binary. Not beside the Swift tests: while it runs, /etc/waymark and
# /usr/share/waymark exist, which tests that rely on the defaults would read. It installs a package and a system
# user: skipped with WAYMARK_SKIP_PACKAGE_TEST=1, and where waymark is installed already (a failure in CI).
if [ "${WAYMARK_SKIP_PACKAGE_TEST:-0}" = 1 ]; then
    echo "package test skipped (WAYMARK_SKIP_PACKAGE_TEST=1)" >&2
elif dpkg-query -W -f='${Status}' waymark waymark-places 2>/dev/null | grep -q "ok installed"; then
    echo "package test not run: waymark is installed on this machine (dpkg -P waymark waymark-places to run it)" >&2
    [ -z "${CI:-}" ] || status=1
else
    deploy/test-package.sh || status=1
fi
exit "$status"
