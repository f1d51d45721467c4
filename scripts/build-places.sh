#!/usr/bin/env bash
# Builds the gazetteer file that names places offline, from GeoNames' populated places and country names in
# data/places/ (see its README: origin, CC BY 4.0 licence, the credit to give).
#   scripts/build-places.sh OUT            -> OUT (the Debian package installs it as /usr/share/waymark/places.bin)
# The file does not depend on the machine (little-endian, as x86_64 and arm64 are): build it anywhere.
# WAYMARK=PATH names the waymark binary to build it with; by default .build-release/waymark when it exists,
# else a debug build (`swift build`, about 5 s to build the file, 1 s in release).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/build-places.sh OUT" >&2; exit 2; }
out=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="$PATH:/opt/swift/usr/bin"
waymark=${WAYMARK:-}
if [ -z "$waymark" ]; then
    if [ -x "$root/.build-release/waymark" ]; then
        waymark="$root/.build-release/waymark"
    else
        (cd "$root" && swift build --product waymark >&2)
        waymark="$(cd "$root" && swift build --show-bin-path)/waymark"
    fi
fi
mkdir -p "$(dirname "$out")"
gzip -dc "$root/data/places/cities1000.tsv.gz" | "$waymark" places build - "$root/data/places/countries.tsv" "$out"
