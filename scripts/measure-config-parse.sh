#!/usr/bin/env bash
# Measures how long WaymarkFormats' TOML reader takes to parse a configuration file (config/waymark.toml by
# default): 2,000 parses of the file held in memory, compiled with -O from Sources/WaymarkFormats/TOML alone,
# so that nothing else is built. Prints the minimum, median and 99th percentile. The budget is 1 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
file=${1:-config/waymark.toml}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
import Foundation

let path = CommandLine.arguments[1]
let text = try String(contentsOfFile: path, encoding: .utf8)
let clock = ContinuousClock()
var samples: [Duration] = []
for _ in 0..<2000 {
    let start = clock.now
    let document = try TOMLDocument(parsing: text, fileName: "waymark.toml")
    samples.append(clock.now - start)
    precondition(!document.root.entries.isEmpty)
}
samples.sort()
func microseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f µs", Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
}
print(
    "\(path): \(text.utf8.count) bytes, 2000 parses: min \(microseconds(samples[0])), "
        + "median \(microseconds(samples[1000])), p99 \(microseconds(samples[1980]))"
)
SWIFT
swiftc -O -o "$work/measure" "$work/main.swift" Sources/WaymarkFormats/TOML/*.swift Sources/WaymarkFormats/Text/*.swift
"$work/measure" "$file"
