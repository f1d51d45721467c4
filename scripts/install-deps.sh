#!/usr/bin/env bash
# Installs the Debian packages Waymark builds and tests with (Debian 12: gpsd 3.22).
# Idempotent; uses sudo when not root. Swift itself is expected on PATH (or in /opt/swift/usr/bin).
set -euo pipefail
packages=(libgps-dev gpsd gpsd-clients python3-gps socat time)
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
# gpsd's package may start a system gpsd on 2947; the tests use their own ports and never need it.
command -v swift >/dev/null || { [ -x /opt/swift/usr/bin/swift ] && echo "add /opt/swift/usr/bin to PATH" >&2; }
