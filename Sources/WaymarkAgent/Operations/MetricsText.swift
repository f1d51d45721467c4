import WaymarkFormats

/// One metric family of the textfile: its `# HELP` and `# TYPE` lines, and for each of its samples the text before
/// the value (`name ` or `name{label="value"} `), from which ``MetricsText`` lays out the file. A class: a write
/// names each family with one reference, compared by identity.
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
///
/// A write names its families and their values (`append`), then ``render()`` makes the text. Everything but the
/// numbers is laid out once, when the samples change (the first write, a new sink or event type dropped), as one
/// text and the offset of each value in it: a write copies the text between the values and writes the numbers.
struct MetricsText {
    /// This write's samples: each family and, for one whose label values come with the write, those values.
    private var samples: [(family: MetricFamily, labelValues: [String]?)] = []
    /// This write's values, in the order of their samples.
    private var values: [Double] = []
    /// The layout's text: every family's `# HELP`, `# TYPE` and samples, without their values.
    private var layout: [UInt8] = []
    /// Where each value goes in ``layout``: right before its sample's newline.
    private var slots: [Int] = []
    /// The samples ``layout`` was made for.
    private var laidOut: [(family: MetricFamily, labelValues: [String]?)] = []

    init() { values.reserveCapacity(128) }

    /// Forgets this write's samples and values (not the layout), for the next write.
    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    /// A family of one sample (an info gauge's is 1).
    mutating func append(_ family: MetricFamily, _ value: Double) {
        samples.append((family, nil))
        values.append(value)
    }

    /// A family of a sample per label value it was made with: `value(i)` is the `i`th's.
    mutating func append(_ family: MetricFamily, _ value: (Int) -> Double) {
        samples.append((family, nil))
        for index in family.samples.indices { values.append(value(index)) }
    }

    /// A family whose label values are known only now (sinks, event types dropped), in the order given.
    mutating func append(_ family: MetricFamily, labelled samples: [(String, Double)]) {
        precondition(family.label != nil, "\(family.name) has no label")
        self.samples.append((family, samples.map(\.0)))
        for (_, value) in samples { values.append(value) }
    }

    /// A histogram family made with `histogram`'s bounds.
    mutating func append(_ family: MetricFamily, _ histogram: Histogram) {
        precondition(family.samples.count == histogram.counts.count + 3, "\(family.name) has other bounds")
        samples.append((family, nil))
        var total = 0
        for count in histogram.counts {
            total += count
            values.append(Double(total))
        }
        values.append(Double(histogram.count))
        values.append(histogram.sum)
        values.append(Double(histogram.count))
    }

    /// The text of this write's samples, as UTF-8: what the file gets. Lays them out first when they are not
    /// those of the last layout. The text is written in place, into an array of the most it can take: the layout's
    /// bytes between the values, and each value's digits (``maximumNumberLength`` at most).
    mutating func render() -> [UInt8] {
        if !samples.elementsEqual(laidOut, by: { $0.family === $1.family && $0.labelValues == $1.labelValues }) {
            layOut()
        }
        precondition(values.count == slots.count, "\(values.count) values for \(slots.count) samples")
        let capacity = layout.count + values.count * Self.maximumNumberLength
        return layout.withUnsafeBufferPointer { layout in
            [UInt8](unsafeUninitializedCapacity: capacity) { text, count in
                var from = 0
                count = 0
                for (slot, value) in zip(slots, values) {
                    count = text.initialize(from: layout[from..<slot], at: count)
                    count = Self.write(value, into: text, at: count)
                    from = slot
                }
                count = text.initialize(from: layout[from...], at: count)
            }
        }
    }

    /// The most bytes a value takes: 16 for an integer (under 10^15), 24 for JSON's shortest form of a double.
    private static let maximumNumberLength = 32

    /// Writes a sample's value into `text` at `offset`, and returns the offset after it: an integer without a
    /// fraction, `NaN`, `+Inf` or `-Inf`, any other number as JSON writes it.
    private static func write(_ value: Double, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        guard value == value.rounded(), abs(value) < 1e15 else {
            var number: [UInt8]
            if value.isNaN {
                number = Array("NaN".utf8)
            } else if value.isInfinite {
                number = Array((value > 0 ? "+Inf" : "-Inf").utf8)
            } else {
                number = []
                JSONText.appendNumber(value, to: &number)
            }
            precondition(number.count <= maximumNumberLength, "\(value) takes \(number.count) bytes")
            return number.withUnsafeBufferPointer { text.initialize(from: $0[...], at: offset) }
        }
        var integer = Int64(value)
        var end = offset
        if integer < 0 {
            text[end] = UInt8(ascii: "-")
            end += 1
            integer = -integer
        }
        // The digits, least significant first (a division by the constant 10 is a multiplication), then reversed.
        let first = end
        repeat {
            text[end] = UInt8(ascii: "0") + UInt8(integer % 10)
            integer /= 10
            end += 1
        } while integer > 0
        var digits = UnsafeMutableBufferPointer(rebasing: text[first..<end])
        digits.reverse()
        return end
    }

    /// The text of ``render()`` as a string.
    mutating func text() -> String { String(decoding: render(), as: UTF8.self) }

    private mutating func layOut() {
        layout.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        for (family, labelValues) in samples {
            layout += family.header
            let prefixes =
                labelValues.map { $0.map { MetricFamily.sample(family.name, [(family.label ?? "", $0)]) } }
                ?? family.samples
            for prefix in prefixes {
                layout += prefix
                slots.append(layout.count)
                layout.append(UInt8(ascii: "\n"))
            }
        }
        laidOut = samples
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

extension UnsafeMutableBufferPointer<UInt8> {
    /// Copies `bytes` in at `offset`; returns the offset after them.
    fileprivate func initialize(from bytes: Slice<UnsafeBufferPointer<UInt8>>, at offset: Int) -> Int {
        guard !bytes.isEmpty else { return offset }
        UnsafeMutableBufferPointer(rebasing: self[offset..<offset + bytes.count]).baseAddress!
            .initialize(from: bytes.base.baseAddress! + bytes.startIndex, count: bytes.count)
        return offset + bytes.count
    }
}
