import WaymarkFormats

/// Prometheus's text exposition format (version 0.0.4), as node_exporter's textfile collector reads it: each
/// family once, with its `# HELP` and `# TYPE`, then its samples; label values escaped; no timestamps (the
/// collector refuses them).
struct MetricsText {
    /// The text, as UTF-8: what the file gets.
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(8 << 10) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A counter family (its name ends in `_total`), one sample per label set.
    mutating func counter(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: Double)]) {
        family(name, "counter", help, samples)
    }

    mutating func counter(_ name: String, _ help: String, _ value: Double) { counter(name, help, [([], value)]) }

    mutating func gauge(_ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: Double)]) {
        family(name, "gauge", help, samples)
    }

    mutating func gauge(_ name: String, _ help: String, _ value: Double) { gauge(name, help, [([], value)]) }

    /// A histogram family: cumulative `_bucket`s with `le`, then `_sum` and `_count`.
    mutating func histogram(_ name: String, _ help: String, _ histogram: Histogram) {
        header(name, "histogram", help)
        for (bound, count) in zip(histogram.boundLabels, histogram.cumulative) {
            sample(name, suffix: "_bucket", [("le", bound)], Double(count))
        }
        sample(name, suffix: "_sum", [], histogram.sum)
        sample(name, suffix: "_count", [], Double(histogram.count))
    }

    private mutating func family(
        _ name: String,
        _ type: String,
        _ help: String,
        _ samples: [(labels: [(String, String)], value: Double)]
    ) {
        header(name, type, help)
        for sample in samples { self.sample(name, sample.labels, sample.value) }
    }

    private mutating func header(_ name: String, _ type: String, _ help: String) {
        append("# HELP ")
        append(name)
        bytes.append(UInt8(ascii: " "))
        append(help)
        append("\n# TYPE ")
        append(name)
        bytes.append(UInt8(ascii: " "))
        append(type)
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func sample(_ name: String, suffix: String = "", _ labels: [(String, String)], _ value: Double) {
        append(name)
        append(suffix)
        if !labels.isEmpty {
            bytes.append(UInt8(ascii: "{"))
            for (index, (label, value)) in labels.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(label)
                append("=\"")
                Self.appendEscaped(value, to: &bytes)
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: " "))
        Self.appendNumber(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends a string's UTF-8 bytes at once, not one by one.
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A sample value: integers without a fraction, others as JSON writes them.
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        if value.isNaN {
            bytes += "NaN".utf8
        } else if value.isInfinite {
            bytes += (value > 0 ? "+Inf" : "-Inf").utf8
        } else if value == value.rounded(), abs(value) < 1e15 {
            var digits = String(Int64(value))
            digits.withUTF8 { bytes.append(contentsOf: $0) }
        } else {
            JSONText.appendNumber(value, to: &bytes)
        }
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func appendEscaped(_ value: String, to bytes: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\n"): bytes += #"\n"#.utf8
            default: bytes.append(byte)
            }
        }
    }
}
