#!/usr/bin/env bash
# Replays every fixture capture (Tests/Fixtures/gpsd-logs/*.chk) through `waymark replay --print`, with each
# decoder, its raw receiver log through a gpsd of its own, and with --spool into the fleet-review logs, into OUT: one file per capture and mode (events on
# stdout; the counts on stderr, their timestamps cut). Two binaries' outputs are compared with `diff -r`:
#   scripts/replay-fixtures.sh BINARY OUT
#   scripts/replay-fixtures.sh /tmp/waymark-before /tmp/before && scripts/replay-fixtures.sh \
#       .build-release/waymark /tmp/after && diff -r /tmp/before /tmp/after && echo identical
# Nothing of the host is read: the configuration names its own directories and no places file.
set -euo pipefail
cd "$(dirname "$0")/.."
waymark=$(realpath "$1")
out=$2
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for capture in Tests/Fixtures/gpsd-logs/*.chk; do
    name=$(basename "$capture" .chk)
    for decoder in builtin libgps; do
        printf '[agent]\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\nruntime_dir = "%s/run"\n[places]\nfile = "%s/none.bin"\n' \
            "$work" "$work" "$work" "$work" > "$work/waymark.toml"
        "$waymark" replay "$capture" --config "$work/waymark.toml" --decoder "$decoder" --print \
            > "$out/$name.$decoder.jsonl" 2> "$out/$name.$decoder.stderr" || echo "exit $?" >> "$out/$name.$decoder.stderr"
        sed -i -E -e "s/^[0-9T:+-]{24} //" -e "s|$work|WORK|g" "$out/$name.$decoder.stderr"
    done
    # The raw receiver log beside it, through a gpsd of its own.
    "$waymark" replay "${capture%.chk}" --config "$work/waymark.toml" --print > "$out/$name.raw.jsonl" 2> /dev/null \
        || echo "exit $?" >> "$out/$name.raw.jsonl"
    rm -rf "$work/state" "$work/logs"
    "$waymark" replay "$capture" --config "$work/waymark.toml" --spool > /dev/null 2>&1 || true
    (cd "$work/logs" 2>/dev/null && find . -type f | sort | while read -r f; do echo "== $f"; cat "$f"; done) \
        > "$out/$name.logs" || true
    rm -rf "$work/state" "$work/logs" "$work/run"
done
echo "$(ls "$out" | wc -l) outputs of $(ls Tests/Fixtures/gpsd-logs/*.chk | wc -l) captures in $out"
