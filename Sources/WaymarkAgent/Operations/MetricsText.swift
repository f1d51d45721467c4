import WaymarkFormats

/// Prometheus's text exposition format (version 0.0.4), as node_exporter's textfile collector reads it: each
/// family once, with its `# HELP` and `# TYPE`, then its samples; label values escaped; no timestamps (the
/// collector refuses them).
struct MetricsText {
    /// The text, as UTF-8: what the file gets.
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(8 << 10) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the text and keeps its storage, for the next write.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// A counter family (its name ends in `_total`) of one sample.
    mutating func counter(_ name: String, _ help: String, _ value: Double) { family(name, "counter", help, value) }

    /// A counter family with one sample per value of `label`.
    mutating func counter(_ name: String, _ help: String, by label: String, _ samples: [(String, Double)]) {
        family(name, "counter", help, label, samples)
    }

    mutating func gauge(_ name: String, _ help: String, _ value: Double) { family(name, "gauge", help, value) }

    mutating func gauge(_ name: String, _ help: String, by label: String, _ samples: [(String, Double)]) {
        family(name, "gauge", help, label, samples)
    }

    /// An info gauge: one sample of 1 whose labels say what it describes.
    mutating func info(_ name: String, _ help: String, _ labels: KeyValuePairs<String, String>) {
        header(name, "gauge", help)
        append(name)
        bytes.append(UInt8(ascii: "{"))
        for (index, (label, value)) in labels.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendLabel(label, value)
        }
        append("} 1\n")
    }

    /// A histogram family: cumulative `_bucket`s with `le`, then `_sum` and `_count`.
    mutating func histogram(_ name: String, _ help: String, _ histogram: Histogram) {
        header(name, "histogram", help)
        for (bound, count) in zip(histogram.boundLabels, histogram.cumulative) {
            sample(name, suffix: "_bucket", "le", bound, Double(count))
        }
        sample(name, suffix: "_sum", histogram.sum)
        sample(name, suffix: "_count", Double(histogram.count))
    }

    private mutating func family(_ name: String, _ type: String, _ help: String, _ value: Double) {
        header(name, type, help)
        sample(name, value)
    }

    private mutating func family(
        _ name: String,
        _ type: String,
        _ help: String,
        _ label: String,
        _ samples: [(String, Double)]
    ) {
        header(name, type, help)
        for (labelValue, value) in samples { sample(name, label, labelValue, value) }
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

    private mutating func sample(_ name: String, suffix: String = "", _ value: Double) {
        append(name)
        append(suffix)
        bytes.append(UInt8(ascii: " "))
        Self.appendNumber(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func sample(
        _ name: String,
        suffix: String = "",
        _ label: String,
        _ labelValue: String,
        _ value: Double
    ) {
        append(name)
        append(suffix)
        bytes.append(UInt8(ascii: "{"))
        appendLabel(label, labelValue)
        append("} ")
        Self.appendNumber(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func appendLabel(_ label: String, _ value: String) {
        append(label)
        append("=\"")
        Self.appendEscaped(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
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
            appendInteger(Int64(value), to: &bytes)
        } else {
            JSONText.appendNumber(value, to: &bytes)
        }
    }

    /// The decimal digits of `value`, written in place.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var index = bytes.count
        repeat {
            index -= 1
            bytes[index] += UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
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
