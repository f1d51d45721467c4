#!/usr/bin/env bash
# What the address file costs: the builder's time and peak memory on both test extracts and on a synthetic
# extract of 5 million addresses (scripts/make-synthetic-extract.py, made into PBF by osmium-tool), the files'
# sizes, and then the running agent's memory with that file (scripts/measure-places-memory.sh with ADDRESSES).
# The lookup's own latency: Benchmarks/ AddressesBenchmarks, over the synthetic file this script leaves in
# .build/addresses/synthetic-5m.bin.
#   scripts/measure-addresses.sh [ADDRESSES]     (default 5000000)
# Needs .build-release/waymark (scripts/build-release.sh), python3 and osmium-tool; the synthetic extract
# takes about 1 GB of OPL text on the way (deleted) and 110 MB of PBF (kept in .build/addresses).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5000000}
waymark=.build-release/waymark
[ -x "$waymark" ] || { echo "build it first: scripts/build-release.sh" >&2; exit 1; }
command -v osmium >/dev/null || { echo "osmium-tool is missing: scripts/install-deps.sh --tests" >&2; exit 1; }
out=.build/addresses
mkdir -p "$out"
synthetic=$out/synthetic-$((count / 1000000))m
if [ ! -f "$synthetic.osm.pbf" ]; then
    python3 scripts/make-synthetic-extract.py "$count" "$synthetic.opl"
    osmium cat "$synthetic.opl" -o "$synthetic.osm.pbf" --overwrite
    rm -f "$synthetic.opl"
fi
for extract in Tests/Fixtures/osm/Helsinki.osm.pbf Tests/Fixtures/osm/liechtenstein-2013-08-03.osm.pbf "$synthetic.osm.pbf"; do
    name=$(basename "$extract" .osm.pbf)
    target=$out/$name.bin
    [ "$extract" != "$synthetic.osm.pbf" ] || target=$synthetic.bin
    /usr/bin/time -f "%e %M" -o "$out/time" "$waymark" places build-addresses "$extract" "$target" 2> "$out/log" \
        || { cat "$out/log" >&2; exit 1; }
    read -r seconds kilobytes < "$out/time"
    echo "$name: $(stat -c %s "$extract") bytes of PBF; built in $seconds s, peak RSS $kilobytes kB; $(tail -1 "$out/log" | sed 's/.*: \([0-9]* addresses\)/\1/')"
done
ADDRESSES=$synthetic.bin scripts/measure-places-memory.sh 3
