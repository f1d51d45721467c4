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
# The Debian package's acceptance (deploy/test-package.sh: lintian, dpkg -i/-r/-P, the installed agent under
# strace) runs beside the Swift tests, on the same release binary. It installs a package and a system user:
# skipped where waymark is installed already, or with WAYMARK_SKIP_PACKAGE_TEST=1.
package_log=$(mktemp)
trap 'rm -f "$build_log" "$package_log"' EXIT
package_pid=""
if [ "${WAYMARK_SKIP_PACKAGE_TEST:-0}" = 1 ]; then
    echo "package test skipped (WAYMARK_SKIP_PACKAGE_TEST=1)" >&2
elif dpkg-query -W -f='${Status}' waymark waymark-places 2>/dev/null | grep -q "ok installed"; then
    echo "package test skipped: waymark is installed on this machine (dpkg -P waymark waymark-places to run it)" >&2
else
    deploy/test-package.sh >"$package_log" 2>&1 &
    package_pid=$!
fi
status=0
swift test --skip-build "$@" || status=$?
if [ -n "$package_pid" ]; then
    if wait "$package_pid"; then
        grep -E "^test-package:|^  [WEI]:|Installed-Size" "$package_log" >&2
    else
        echo "deploy/test-package.sh failed:" >&2
        cat "$package_log" >&2
        status=1
    fi
fi
exit "$status"
