import WaymarkCore
import WaymarkFormats

/// Writes one GPX 1.1 track (`http://www.topografix.com/GPX/1/1`) into a caller's byte buffer, point by point,
/// so that an export of millions of fixes never holds them all.
///
/// ```swift
/// var writer = GPXWriter(name: "Trip 42")
/// for point in points { writer.add(point, into: &buffer) }
/// writer.endSegment(into: &buffer)  // the fix was lost: the next point starts a new <trkseg>
/// writer.finish(into: &buffer)
/// ```
///
/// The document is valid against the official schema: `<metadata><time>` is the first point's time, each
/// `<trkpt>` holds `<ele>` (metres above mean sea level) and `<time>` in the schema's order. Speed and course,
/// which GPX 1.1 has no element for, go into the point's `<extensions>` as Garmin's TrackPointExtension v2
/// (`gpxtpx:speed` in m/s, `gpxtpx:course` in degrees true), the extension most GPX readers already know; the
/// schema takes any element of another namespace there (`processContents="lax"`).
///
/// Numbers have at most 9 decimals and never an exponent. A point that GPX cannot hold (not finite, latitude
/// outside -90 ... 90, longitude outside -180 ... 180) is left out; longitude 180 is written as -180, since
/// the schema's range ends before 180. Text is escaped, and characters XML 1.0 forbids become U+FFFD.
public struct GPXWriter: Sendable {
    /// The track's `<name>`.
    public let name: String
    /// The track's `<desc>`; nil writes none.
    public let description: String?
    /// The track's `<src>`, the board that recorded it (`[agent] device_id`); nil writes none.
    public let source: String?
    /// The program named in `<gpx creator>`.
    public let creator: String
    /// Points written so far.
    public private(set) var pointCount = 0
    /// Segments opened so far.
    public private(set) var segmentCount = 0
    private var state = State.notStarted

    private enum State: Sendable {
        /// Nothing written: the header waits for the first point's time.
        case notStarted
        /// Header and `<trk>` written, no segment open.
        case inTrack
        case inSegment
        case finished
    }

    public init(name: String, description: String? = nil, source: String? = nil, creator: String = "Waymark") {
        self.name = name
        self.description = description
        self.source = source
        self.creator = creator
    }

    /// Appends a point; the first one writes the header too. Returns false, writing nothing, for a point GPX
    /// cannot hold.
    @discardableResult
    public mutating func add(_ point: TrackPoint, into buffer: inout [UInt8]) -> Bool {
        precondition(state != .finished, "add(_:into:) after finish(into:)")
        guard point.isWritable else { return false }
        if state == .notStarted { writeHeader(time: point.time, into: &buffer) }
        if state == .inTrack {
            buffer.append(literal: "    <trkseg>\n")
            segmentCount += 1
            state = .inSegment
        }
        writePoint(point, into: &buffer)
        pointCount += 1
        return true
    }

    /// Closes the open segment, so that the next point starts a new one; nothing when no segment is open.
    public mutating func endSegment(into buffer: inout [UInt8]) {
        guard state == .inSegment else { return }
        buffer.append(literal: "    </trkseg>\n")
        state = .inTrack
    }

    /// Closes the document. Without a point it is a track without segments, and without `<metadata>`.
    public mutating func finish(into buffer: inout [UInt8]) {
        precondition(state != .finished, "finish(into:) twice")
        if state == .notStarted { writeHeader(time: nil, into: &buffer) }
        endSegment(into: &buffer)
        buffer.append(literal: "  </trk>\n</gpx>\n")
        state = .finished
    }

    /// Writes a whole document: one track, one `<trkseg>` per segment. Points GPX cannot hold are left out,
    /// and segments left empty with them.
    ///
    /// - Parameters:
    ///   - segments: the track's segments, each in time order; ``segments(_:splitAt:)`` makes them from a trip's
    ///     points and the instants it lost its fix.
    public static func track(
        name: String,
        description: String? = nil,
        source: String? = nil,
        segments: [[TrackPoint]],
        creator: String = "Waymark",
        into buffer: inout [UInt8]
    ) {
        var writer = GPXWriter(name: name, description: description, source: source, creator: creator)
        for segment in segments {
            for point in segment { writer.add(point, into: &buffer) }
            writer.endSegment(into: &buffer)
        }
        writer.finish(into: &buffer)
    }

    // MARK: - Writing

    private mutating func writeHeader(time: Timestamp?, into buffer: inout [UInt8]) {
        buffer.append(literal: #"<?xml version="1.0" encoding="UTF-8"?>"#)
        buffer.append(literal: "\n<gpx version=\"1.1\" creator=\"")
        Self.appendEscaped(creator, to: &buffer)
        buffer.append(literal: #"" xmlns="http://www.topografix.com/GPX/1/1""#)
        buffer.append(literal: #" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#)
        buffer.append(literal: #" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2""#)
        buffer.append(literal: #" xsi:schemaLocation="http://www.topografix.com/GPX/1/1"#)
        buffer.append(literal: #" http://www.topografix.com/GPX/1/1/gpx.xsd">"#)
        buffer.append(UInt8(ascii: "\n"))
        if let time {
            buffer.append(literal: "  <metadata>\n    <time>")
            time.appendISO8601(to: &buffer)
            buffer.append(literal: "</time>\n  </metadata>\n")
        }
        buffer.append(literal: "  <trk>\n    <name>")
        Self.appendEscaped(name, to: &buffer)
        buffer.append(literal: "</name>\n")
        if let description {
            buffer.append(literal: "    <desc>")
            Self.appendEscaped(description, to: &buffer)
            buffer.append(literal: "</desc>\n")
        }
        if let source {
            buffer.append(literal: "    <src>")
            Self.appendEscaped(source, to: &buffer)
            buffer.append(literal: "</src>\n")
        }
        state = .inTrack
    }

    private func writePoint(_ point: TrackPoint, into buffer: inout [UInt8]) {
        var longitude = PlainDecimal(point.longitude)
        if longitude.isWhole(180) { longitude = PlainDecimal(-180.0) }
        buffer.append(literal: #"      <trkpt lat=""#)
        PlainDecimal(point.latitude).append(to: &buffer)
        buffer.append(literal: #"" lon=""#)
        longitude.append(to: &buffer)
        buffer.append(literal: #"">"#)
        if let elevation = point.elevation, elevation.isFinite {
            buffer.append(literal: "<ele>")
            PlainDecimal(elevation).append(to: &buffer)
            buffer.append(literal: "</ele>")
        }
        buffer.append(literal: "<time>")
        point.time.appendISO8601(to: &buffer)
        buffer.append(literal: "</time>")
        let speed = point.speed.flatMap { $0.isFinite && $0 >= 0 ? PlainDecimal($0) : nil }
        let course = point.course.flatMap(Self.degreesTrue)
        if speed != nil || course != nil {
            buffer.append(literal: "<extensions><gpxtpx:TrackPointExtension>")
            if let speed {
                buffer.append(literal: "<gpxtpx:speed>")
                speed.append(to: &buffer)
                buffer.append(literal: "</gpxtpx:speed>")
            }
            if let course {
                buffer.append(literal: "<gpxtpx:course>")
                course.append(to: &buffer)
                buffer.append(literal: "</gpxtpx:course>")
            }
            buffer.append(literal: "</gpxtpx:TrackPointExtension></extensions>")
        }
        buffer.append(literal: "</trkpt>\n")
    }

    /// A course as TrackPointExtension's `DegreesTrue_t` takes it: 0 up to, not including, 360.
    private static func degreesTrue(_ course: Double) -> PlainDecimal? {
        guard course.isFinite else { return nil }
        var degrees = course.truncatingRemainder(dividingBy: 360)
        if degrees < 0 { degrees += 360 }
        let decimal = PlainDecimal(degrees)
        return decimal.isWhole(360) ? PlainDecimal(0.0) : decimal
    }

    /// Appends `text` escaped for XML character data and attribute values in double or single quotes.
    static func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": buffer.append(literal: "&amp;")
            case "<": buffer.append(literal: "&lt;")
            case ">": buffer.append(literal: "&gt;")
            case "\"": buffer.append(literal: "&quot;")
            case "'": buffer.append(literal: "&apos;")
            // Kept through attribute-value normalisation, which would turn them into spaces.
            case "\t": buffer.append(literal: "&#9;")
            case "\n": buffer.append(literal: "&#10;")
            case "\r": buffer.append(literal: "&#13;")
            case "\u{0}"..<"\u{20}", "\u{FFFE}", "\u{FFFF}":
                // Not XML 1.0 characters, not even as references.
                buffer.append(literal: "\u{FFFD}")
            default:
                if scalar.isASCII {
                    buffer.append(UInt8(scalar.value))
                } else {
                    UTF8.encode(scalar) { buffer.append($0) }
                }
            }
        }
    }
}

/// A finite number as a plain decimal: rounded to 9 decimals (0.1 mm in latitude), trailing zeros dropped,
/// never an exponent, never `-0`; valid as `xsd:decimal`, as a JSON number and in a CSV cell.
struct PlainDecimal: Sendable {
    private let negative: Bool
    /// The digits before the point; nil for a magnitude of 1e15 or more, written from ``large``.
    private let whole: UInt64?
    /// Billionths.
    private let fraction: UInt64
    private let large: Double

    /// Precondition: `value` is finite.
    init(_ value: Double) {
        precondition(value.isFinite, "PlainDecimal of \(value)")
        let magnitude = abs(value)
        large = value
        guard magnitude < 1e15 else {
            negative = value < 0
            whole = nil
            fraction = 0
            return
        }
        var whole = magnitude.rounded(.towardZero)
        // Exact: subtracting the integer part drops leading bits only.
        var billionths = ((magnitude - whole) * 1e9).rounded()
        if billionths >= 1e9 {
            whole += 1
            billionths -= 1e9
        }
        self.whole = UInt64(whole)
        self.fraction = UInt64(billionths)
        self.negative = value < 0 && (whole != 0 || billionths != 0)
    }

    /// Whether it is written as the whole number `value` (0 or more).
    func isWhole(_ value: UInt64) -> Bool { !negative && whole == value && fraction == 0 }

    func append(to buffer: inout [UInt8]) {
        guard let whole else {
            Self.appendExpanded(large, to: &buffer)
            return
        }
        if negative { buffer.append(UInt8(ascii: "-")) }
        buffer.append(decimal: whole)
        guard fraction != 0 else { return }
        buffer.append(UInt8(ascii: "."))
        var digits = 9
        var rest = fraction
        while rest % 10 == 0 {
            rest /= 10
            digits -= 1
        }
        buffer.append(decimal: rest, minimumDigits: digits)
    }

    /// A magnitude of 1e15 or more, whose shortest text may have an exponent: `1.5e+20` as `150000000000000000000`.
    private static func appendExpanded(_ value: Double, to buffer: inout [UInt8]) {
        var text = Array(value.description.utf8)
        if text.starts(with: [UInt8(ascii: "-")]) {
            buffer.append(UInt8(ascii: "-"))
            text.removeFirst()
        }
        guard let e = text.firstIndex(of: UInt8(ascii: "e")) else {
            let plain = text.suffix(2).elementsEqual(".0".utf8) ? text.dropLast(2) : text[...]
            buffer.append(contentsOf: plain)
            return
        }
        let exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
        let digits = text[..<e].filter { $0 != UInt8(ascii: ".") }
        // The mantissa has one digit before its point; the point moves `exponent` places right.
        let point = 1 + exponent
        if point >= digits.count {
            buffer.append(contentsOf: digits)
            buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        } else {
            buffer.append(contentsOf: digits[..<point])
            buffer.append(UInt8(ascii: "."))
            buffer.append(contentsOf: digits[point...])
        }
    }
}
