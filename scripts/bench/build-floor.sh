#!/usr/bin/env bash
# Builds the floor of scripts/bench-live.sh's paced run: `waymark` with its work taken out. It is the release
# build of the working tree as it is (its files that git tracks or does not ignore, and Package.resolved, so the
# dependencies are the same versions), but the location service is handed gpsd's batches by an empty
# closure: the connection's thread reads, maps and assembles every message as the agent does, then drops it (no
# pipeline, no encoding, no stdout, no spool). Prints the binary's path on stdout.
#
#   FLOOR=$(scripts/bench/build-floor.sh) CLIENTS="waymark floor c gpspipe" scripts/bench-live.sh -x 10 -l 2500
#
# The copy of the sources and its build stay in .build-floor/ (out of git): the next build is incremental.
set -euo pipefail
cd "$(dirname "$0")/../.."
copy=.build-floor/src
service=Sources/WaymarkAgent/Services/LocationService.swift
handing='let stopSource = startSource { [self] batch in state.locked { step(.batch(batch), state) } }'
dropping='let stopSource = startSource { _ in }'

grep -qF "$handing" "$service" || {
    echo "build-floor: $service no longer hands the batches with: $handing; update this script" >&2
    exit 1
}
mkdir -p "$copy"
# The files of the working tree, one per line (a name with a line break in it is left out).
files=$(mktemp)
trap 'rm -f "$files"' EXIT
{
    git ls-files -z --cached --others --exclude-standard
    if [ -f Package.resolved ]; then printf '%s\0' Package.resolved; fi
} | while IFS= read -r -d '' file; do
    if [ -f "$file" ] && [[ $file != *$'\n'* ]]; then printf '%s\n' "$file"; fi
done | sort -u >"$files"
# Only what changed is copied, so the build after it recompiles only that.
while IFS= read -r file; do
    [ "$file" != "$service" ] || continue
    cmp -s "$file" "$copy/$file" && continue
    mkdir -p "$copy/$(dirname "$file")"
    cp "$file" "$copy/$file"
done <"$files"
# A file gone from the working tree must not be compiled in the copy.
(cd "$copy" && find . -path ./.build-release -prune -o -type f -print | sed 's|^\./||' | sort) |
    comm -23 - <(sort -u "$files" <(echo "$service")) |
    while IFS= read -r stale; do rm -f "$copy/$stale"; done
content=$(<"$service")
printf '%s\n' "${content/"$handing"/$dropping}" >"$copy/$service.new"
if cmp -s "$copy/$service.new" "$copy/$service"; then rm "$copy/$service.new"; else mv "$copy/$service.new" "$copy/$service"; fi

built=$(cd "$copy" && scripts/build-release.sh)
echo "$PWD/$copy/$built"
