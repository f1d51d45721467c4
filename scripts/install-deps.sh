#!/usr/bin/env bash
# Installs the Debian packages Waymark builds and runs with (Debian 12: gpsd 3.22); with --tests also
# what the tests and the package's test use, and the PyPI package geographiclib that the geodesy tests take as their oracle (the quick start's
# drive needs neither).
# Idempotent; uses sudo when not root. Swift itself is expected on PATH (or in /opt/swift/usr/bin).
set -euo pipefail
# libcurl4-openssl-dev, zlib1g-dev, libzstd-dev and libmosquitto-dev: the headers the uplinks build on (the libraries
# themselves are loaded only when a network sink is enabled; libzstd for [sinks.http] content_encoding "auto", the default, and "zstd"); libsystemd-dev: sd-bus's header, for the beacon source (libsystemd
# is loaded only with [beacons] enabled).
packages=(libgps-dev gpsd gpsd-clients python3-gps socat time libsqlite3-dev sqlite3 libcurl4-openssl-dev zlib1g-dev
    libzstd-dev libmosquitto-dev libsystemd-dev libxml2-utils binutils)
# The tests also set a process's clock years off, as a board without a real-time clock boots (faketime), and
# build, check, install and trace the Debian package (dpkg-dev, lintian, man-db, strace).
# The measurements (--bench): scripts/bench-live.sh builds its C peer client with the system's compiler;
# scripts/measure-air-bytes.sh captures the uplinks' packets (tcpdump) to a real broker (mosquitto) and a server
# that decodes zstd with its command (zstd); scripts/bench/callgrind-live.sh counts instructions (valgrind).
[ "${1:-}" = "--bench" ] && packages+=(gcc libc6-dev tcpdump mosquitto zstd valgrind)
# The uplinks' tests run a real MQTT broker and make its certificates (mosquitto, mosquitto-clients, openssl), decode
# zstd bodies as a backend would (zstd), and
# build the OwnTracks Recorder (Tests/Tools/owntracks-recorder: gcc make pkg-config liblmdb-dev libconfig-dev
# uuid-dev, with the libcurl and libmosquitto headers above) as the consumer behind it; the beacons' tests a D-Bus
# bus with a BlueZ stand-in (dbus, python3-dbusmock) and btmon as the btsnoop oracle (bluez); the power-cut suite
# builds LazyFS (Tests/Tools/lazyfs: cmake g++ libfuse3-dev libspdlog-dev libfmt-dev libtoml11-dev) and mounts it
# (fuse3); the address file's oracle reads the OpenStreetMap extracts with osmium-tool, not with Waymark's reader.
[ "${1:-}" = "--tests" ] && packages+=(faketime dpkg-dev lintian man-db strace prometheus-node-exporter python3-prometheus-client
    mosquitto mosquitto-clients openssl zstd gcc make pkg-config liblmdb-dev libconfig-dev uuid-dev dbus python3-dbusmock bluez
    cmake g++ libfuse3-dev fuse3 libspdlog-dev libfmt-dev libtoml11-dev osmium-tool)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--tests" ]; then
    # The geodesy tests compare with GeographicLib's Python package (PyPI), run by the python3 on PATH. A
    # Debian python3 refuses pip installs (PEP 668) unless told otherwise; a pyenv or venv python3 does not.
    geographiclib="geographiclib==2.1"
    if ! python3 -c 'import geographiclib' 2>/dev/null; then
        echo "installing: $geographiclib from PyPI for $(command -v python3)" >&2
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$geographiclib" 2>/dev/null \
            || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --break-system-packages \
                $([ "$(id -u)" -eq 0 ] || echo --user) "$geographiclib"
        python3 -c 'import geographiclib' || { echo "geographiclib is still missing for $(command -v python3)" >&2; exit 1; }
    fi
fi
# gpsd's package may start a system gpsd on 2947; the tests use their own ports and never need it.
if ! command -v swift >/dev/null && [ ! -x /opt/swift/usr/bin/swift ]; then
    echo "swift is not installed: see README.md, \"Installing Swift on Debian 12\"" >&2
    exit 1
fi
