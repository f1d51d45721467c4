import WaymarkFormats

/// One metric family of the textfile, laid out once: its `# HELP` and `# TYPE` lines, and for each of its samples
/// the text before the value (`name ` or `name{label="value"} `). A write copies these and writes the numbers
/// only. A class: a write touches each family once, and a reference to it is one retain, not one per array.
final class MetricFamily: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    let name: String
    /// The label of the samples, when they have one.
    let label: String?
    /// `# HELP name help\n# TYPE name kind\n`.
    fileprivate let header: [UInt8]
    /// Each sample's text up to its value, in order: one for a family without a label, one per label value,
    /// or a histogram's buckets, `_sum` and `_count`.
    fileprivate let samples: [[UInt8]]

    /// A family of one sample without labels.
    convenience init(_ name: String, _ kind: Kind, _ help: String) {
        self.init(name, kind, help, label: nil, samples: [Array("\(name) ".utf8)])
    }

    /// A family with one sample per value of `label`, in the order of `values`.
    convenience init(_ name: String, _ kind: Kind, _ help: String, by label: String, _ values: [String]) {
        self.init(name, kind, help, label: label, samples: values.map { Self.sample(name, [(label, $0)]) })
    }

    /// An info gauge: one sample of 1 whose labels say what it describes.
    convenience init(info name: String, _ help: String, _ labels: KeyValuePairs<String, String>) {
        self.init(name, .gauge, help, label: nil, samples: [Self.sample(name, Array(labels))])
    }

    /// A histogram of the bounds of `histogram`: cumulative `_bucket`s with `le`, then `_sum` and `_count`.
    convenience init(_ name: String, _ help: String, bucketsOf histogram: Histogram) {
        let buckets = histogram.boundLabels.map { Self.sample(name + "_bucket", [("le", $0)]) }
        self.init(
            name,
            .histogram,
            help,
            label: nil,
            samples: buckets + [Array("\(name)_sum ".utf8), Array("\(name)_count ".utf8)]
        )
    }

    private init(_ name: String, _ kind: Kind, _ help: String, label: String?, samples: [[UInt8]]) {
        self.name = name
        self.label = label
        header = Array("# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n".utf8)
        self.samples = samples
    }

    /// `name{label="value",…} `, the values escaped.
    fileprivate static func sample(_ name: String, _ labels: [(String, String)]) -> [UInt8] {
        var bytes = Array(name.utf8)
        bytes.append(UInt8(ascii: "{"))
        for (index, (label, value)) in labels.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += label.utf8
            bytes += #"=""#.utf8
            MetricsText.appendEscaped(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes += "} ".utf8
        return bytes
    }
}

/// Prometheus's text exposition format (version 0.0.4), as node_exporter's textfile collector reads it: each
/// family once, with its `# HELP` and `# TYPE`, then its samples; label values escaped; no timestamps (the
/// collector refuses them).
struct MetricsText {
    /// The text, as UTF-8: what the file gets.
    private(set) var bytes: [UInt8] = []
    /// The samples of families whose label values come with each write (sinks, event types dropped), laid out
    /// at their first write: by family name, each label value and its text.
    private var labelledSamples: [String: [(value: String, prefix: [UInt8])]] = [:]

    init() { bytes.reserveCapacity(8 << 10) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the text and keeps its storage, for the next write.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// A family of one sample (an info gauge's is 1).
    mutating func append(_ family: MetricFamily, _ value: Double) {
        bytes += family.header
        sample(family.samples[0], value)
    }

    /// A family of a sample per label value it was made with: `value(i)` is the `i`th's.
    mutating func append(_ family: MetricFamily, _ value: (Int) -> Double) {
        bytes += family.header
        for index in family.samples.indices { sample(family.samples[index], value(index)) }
    }

    /// A family whose label values are known only now (sinks, event types dropped): each sample's text is made
    /// the first time its value comes.
    mutating func append(_ family: MetricFamily, labelled samples: [(String, Double)]) {
        precondition(family.label != nil, "\(family.name) has no label")
        bytes += family.header
        var known = labelledSamples.removeValue(forKey: family.name) ?? []
        for (labelValue, value) in samples {
            if let prefix = known.first(where: { $0.value == labelValue })?.prefix {
                sample(prefix, value)
            } else {
                let prefix = MetricFamily.sample(family.name, [(family.label ?? "", labelValue)])
                known.append((labelValue, prefix))
                sample(prefix, value)
            }
        }
        labelledSamples[family.name] = known
    }

    /// A histogram family made with `histogram`'s bounds.
    mutating func append(_ family: MetricFamily, _ histogram: Histogram) {
        precondition(family.samples.count == histogram.counts.count + 3, "\(family.name) has other bounds")
        bytes += family.header
        var total = 0
        for (index, count) in histogram.counts.enumerated() {
            total += count
            sample(family.samples[index], Double(total))
        }
        let infinity = histogram.counts.count
        sample(family.samples[infinity], Double(histogram.count))
        sample(family.samples[infinity + 1], histogram.sum)
        sample(family.samples[infinity + 2], Double(histogram.count))
    }

    private mutating func sample(_ prefix: [UInt8], _ value: Double) {
        bytes += prefix
        Self.appendNumber(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
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

    /// The decimal digits of `value`: written least significant first (a division by the constant 10 is a
    /// multiplication), then put in order.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
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
