import WaymarkCore
import WaymarkFormats
import WaymarkGPX

/// A file format an export of event lines is written in.
public enum ExportFormat: String, CaseIterable, Hashable, Sendable {
    /// The event lines as they are: JSON Lines (docs/events.md, "Events").
    case jsonl
    /// One GPX 1.1 track of the `location` events (see ``GPXWriter``).
    case gpx
    /// A GeoJSON (RFC 7946) FeatureCollection: a Point for every event with `lat` and `lon`.
    case geojson
    /// RFC 4180 CSV, one row per event, the columns of ``Exporter/csvColumns``.
    case csv
}

/// Writes event lines as one ``ExportFormat`` document, line by line, into a caller's byte buffer.
///
/// Call ``begin(into:)``, then ``add(_:raw:into:)`` for each line in `seq` order, then ``end(into:)``. Nothing
/// is held between lines but a few flags, so the caller may write and empty its buffer whenever it likes.
///
/// - `jsonl`: each raw line and a line feed.
/// - `gpx`: the `location` events as one track (``GPXWriter``); an `error` event whose `code` is one of
///   ``fixLossCodes`` ends the segment, so the next location starts a new `<trkseg>`.
/// - `geojson`: every event with `lat` and `lon` (within -90 ... 90 and -180 ... 180) becomes a Point Feature,
///   `[lon, lat]` plus `alt_hae` when present: RFC 7946 defines the third position element as the height above
///   the WGS84 ellipsoid, not above mean sea level. Its `properties` is the raw event object, byte for byte.
/// - `csv`: a header of ``csvColumns``, then one row per event with empty cells for absent members; CRLF line
///   breaks and quoting as RFC 4180 asks.
public struct Exporter: Sendable {
    public let format: ExportFormat
    private var gpx: GPXWriter
    private var phase = Phase.new
    /// Lines (`jsonl`), track points (`gpx`), features (`geojson`) or rows (`csv`) written so far.
    public private(set) var count = 0

    private enum Phase: Sendable {
        case new
        case begun
        case ended
    }

    /// The `code`s of the `error` events that mean the receiver lost its fix: a GPX track splits there.
    public static let fixLossCodes: Set<String> = [
        ErrorCode.locationUnknown.rawValue, ErrorCode.gpsdUnavailable.rawValue, ErrorCode.noDevice.rawValue,
    ]

    /// The CSV columns, each the event member of that name.
    public static let csvColumns = [
        "seq", "type", "time", "lat", "lon", "alt_msl", "h_acc", "speed", "course", "mode", "reason", "id", "event",
        "code",
    ]

    private static let csvNumberColumns = ["lat", "lon", "alt_msl", "h_acc", "speed", "course", "mode"]
    private static let csvTextColumns = ["reason", "id", "event", "code"]

    /// - Parameter trackName: the GPX track's `<name>`; the other formats have no name.
    public init(format: ExportFormat, trackName: String = "Waymark") {
        self.format = format
        self.gpx = GPXWriter(name: trackName)
    }

    /// Writes what comes before the first event.
    public mutating func begin(into buffer: inout [UInt8]) {
        precondition(phase == .new, "begin(into:) twice")
        phase = .begun
        switch format {
        case .jsonl, .gpx: break  // GPX's header waits for the first location's time.
        case .geojson: buffer.append(literal: #"{"type":"FeatureCollection","features":["#)
        case .csv:
            buffer.append(contentsOf: Self.csvColumns.joined(separator: ",").utf8)
            buffer.append(literal: "\r\n")
        }
    }

    /// Writes one event.
    ///
    /// - Parameters:
    ///   - line: the decoded line.
    ///   - raw: the line as read, without its line break; the object `line` was decoded from.
    public mutating func add(_ line: EventLine, raw: some Collection<UInt8>, into buffer: inout [UInt8]) {
        precondition(phase == .begun, "add(_:raw:into:) outside begin(into:) ... end(into:)")
        switch format {
        case .jsonl:
            buffer.append(contentsOf: raw)
            buffer.append(UInt8(ascii: "\n"))
            count += 1
        case .gpx:
            if let point = TrackPoint(line) {
                if gpx.add(point, into: &buffer) { count += 1 }
            } else if line.type == "error", let code = line.string("code"), Self.fixLossCodes.contains(code) {
                gpx.endSegment(into: &buffer)
            }
        case .geojson:
            addFeature(line, raw: raw, into: &buffer)
        case .csv:
            addRow(line, into: &buffer)
        }
    }

    /// Writes what comes after the last event.
    public mutating func end(into buffer: inout [UInt8]) {
        precondition(phase == .begun, "end(into:) without begin(into:), or twice")
        phase = .ended
        switch format {
        case .jsonl, .csv: break
        case .gpx: gpx.finish(into: &buffer)
        case .geojson: buffer.append(literal: "\n]}\n")
        }
    }

    // MARK: - GeoJSON

    private mutating func addFeature(_ line: EventLine, raw: some Collection<UInt8>, into buffer: inout [UInt8]) {
        guard let coordinate = line.coordinate, coordinate.latitude.isFinite, coordinate.longitude.isFinite,
            (-90...90).contains(coordinate.latitude), (-180...180).contains(coordinate.longitude)
        else { return }
        buffer.append(contentsOf: count == 0 ? "\n".utf8 : ",\n".utf8)
        buffer.append(literal: #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#)
        PlainDecimal(coordinate.longitude).append(to: &buffer)
        buffer.append(UInt8(ascii: ","))
        PlainDecimal(coordinate.latitude).append(to: &buffer)
        if let height = line.number("alt_hae"), height.isFinite {
            buffer.append(UInt8(ascii: ","))
            PlainDecimal(height).append(to: &buffer)
        }
        buffer.append(literal: #"]},"properties":"#)
        // A byte order mark may start a line, but not a value inside a document.
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) {
            buffer.append(contentsOf: raw.dropFirst(3))
        } else {
            buffer.append(contentsOf: raw)
        }
        buffer.append(UInt8(ascii: "}"))
        count += 1
    }

    // MARK: - CSV

    private mutating func addRow(_ line: EventLine, into buffer: inout [UInt8]) {
        buffer.append(decimal: line.seq)
        buffer.append(UInt8(ascii: ","))
        Self.appendCell(line.type, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        line.time.appendISO8601(to: &buffer)
        for key in Self.csvNumberColumns {
            buffer.append(UInt8(ascii: ","))
            if let value = line.number(key), value.isFinite { PlainDecimal(value).append(to: &buffer) }
        }
        for key in Self.csvTextColumns {
            buffer.append(UInt8(ascii: ","))
            if let value = line.string(key) { Self.appendCell(value, to: &buffer) }
        }
        buffer.append(literal: "\r\n")
        count += 1
    }

    /// A text cell, in double quotes (doubled inside) when it holds a comma, a quote or a line break.
    private static func appendCell(_ text: String, to buffer: inout [UInt8]) {
        let special: (UInt8) -> Bool = {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard text.utf8.contains(where: special) else {
            buffer.append(contentsOf: text.utf8)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
