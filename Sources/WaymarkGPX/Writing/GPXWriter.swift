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
    /// The document's `<wpt>` elements, before the track as the schema orders them.
    public let waypoints: [Waypoint]
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

    public init(
        name: String,
        description: String? = nil,
        source: String? = nil,
        creator: String = "Waymark",
        waypoints: [Waypoint] = []
    ) {
        self.name = name
        self.description = description
        self.source = source
        self.creator = creator
        self.waypoints = waypoints
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
        waypoints: [Waypoint] = [],
        creator: String = "Waymark",
        into buffer: inout [UInt8]
    ) {
        var writer = GPXWriter(
            name: name,
            description: description,
            source: source,
            creator: creator,
            waypoints: waypoints
        )
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
        for waypoint in waypoints where waypoint.isWritable { writeWaypoint(waypoint, into: &buffer) }
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

    /// ` lat="…" lon="…"`: longitude 180 as -180, since the schema's range ends before 180.
    private static func appendPosition(latitude: Double, longitude: Double, to buffer: inout [UInt8]) {
        var east = PlainDecimal(longitude)
        if east.isWhole(180) { east = PlainDecimal(-180.0) }
        buffer.append(literal: #" lat=""#)
        PlainDecimal(latitude).append(to: &buffer)
        buffer.append(literal: #"" lon=""#)
        east.append(to: &buffer)
        buffer.append(literal: #"""#)
    }

    /// `<wpt>` with its children in the schema's order: `time`, `name`, `desc`, `type`.
    private func writeWaypoint(_ waypoint: Waypoint, into buffer: inout [UInt8]) {
        buffer.append(literal: "  <wpt")
        Self.appendPosition(latitude: waypoint.latitude, longitude: waypoint.longitude, to: &buffer)
        buffer.append(literal: "><time>")
        waypoint.time.appendISO8601(to: &buffer)
        buffer.append(literal: "</time><name>")
        Self.appendEscaped(waypoint.name, to: &buffer)
        buffer.append(literal: "</name>")
        if let description = waypoint.description {
            buffer.append(literal: "<desc>")
            Self.appendEscaped(description, to: &buffer)
            buffer.append(literal: "</desc>")
        }
        if let type = waypoint.type {
            buffer.append(literal: "<type>")
            Self.appendEscaped(type, to: &buffer)
            buffer.append(literal: "</type>")
        }
        buffer.append(literal: "</wpt>\n")
    }

    private func writePoint(_ point: TrackPoint, into buffer: inout [UInt8]) {
        buffer.append(literal: "      <trkpt")
        Self.appendPosition(latitude: point.latitude, longitude: point.longitude, to: &buffer)
        buffer.append(literal: ">")
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
