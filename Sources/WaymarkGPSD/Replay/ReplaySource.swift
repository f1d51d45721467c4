import WaymarkCore

/// A recorded drive played back through the same pipeline as a live connection, on a simulated clock.
public protocol ReplaySource: AnyObject {
    /// The next update, or nil at the end of the recording.
    func next() -> SourceUpdate?
}

/// Opening a recording for replay.
public enum Replay {
    /// Opens a gpsd JSON capture (what `gpspipe -w` writes), decoded by `decoder`, or a GPX 1.1 file, told
    /// apart by content; `routeSpeed` (metres per second) times a GPX route's points that have no `time`
    /// (``GPXFile/parse(_:fileName:routeSpeed:)``).
    public static func open(
        contentsOf path: String,
        decoder: CaptureDecoder = .builtin,
        routeSpeed: Double? = nil
    ) throws(ReplayError) -> any ReplaySource {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw ReplayError("\(path): \(error.message)")
        }
        let firstByte = bytes.first { ![0x20, 0x09, 0x0D, 0x0A, 0xEF, 0xBB, 0xBF].contains($0) }
        guard firstByte == UInt8(ascii: "<") else {
            if routeSpeed != nil {
                throw ReplayError(
                    "\(path): --route-speed times a GPX route; this is not GPX, and a capture has its times"
                )
            }
            try refuseUnlessCapture(bytes, path)
            return CaptureReplay(bytes: bytes, decoder: decoder)
        }
        do {
            let file = try GPXFile.parse(bytes, fileName: path, routeSpeed: routeSpeed)
            return GPXReplay(file, isTimedAtRouteSpeed: routeSpeed != nil)
        } catch {
            throw ReplayError(error.description)
        }
    }
}

extension Replay {
    /// A file with no line of gpsd JSON would replay to nothing: a raw receiver log, or no recording at all,
    /// is refused with what it is and how to replay it.
    static func refuseUnlessCapture(_ bytes: [UInt8], _ path: String) throws(ReplayError) {
        var sentences = 0
        var atLineStart = true
        for byte in bytes {
            if atLineStart {
                // Indentation and a byte order mark come before a line's first character.
                if [0x20, 0x09, 0x0D, 0xEF, 0xBB, 0xBF].contains(byte) { continue }
                if byte == UInt8(ascii: "{") { return }
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") { sentences += 1 }
            }
            atLineStart = byte == UInt8(ascii: "\n")
        }
        guard sentences == 0 else {
            throw ReplayError(
                "\(path) is a raw receiver log (\(sentences) NMEA sentences), not a gpsd JSON capture: feed it to a "
                    + "gpsd (`gpsfake \(path)`, or scripts/drive.sh \(path) in Waymark's repository) and run the agent "
                    + "on that gpsd, or record gpsd's JSON with `gpspipe -w > drive.json` and replay that"
            )
        }
        throw ReplayError(
            "\(path) is neither a gpsd JSON capture (`gpspipe -w`: one JSON object a line) nor a GPX file: "
                + "no line of it starts with {; if it is a receiver's own binary log, feed it to a gpsd "
                + "(`gpsfake \(path)`) and run the agent on that gpsd"
        )
    }
}

/// A recording that cannot be replayed: unreadable, or a GPX file that is not well-formed.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, starting with the path (and line): `drive.gpx:57: expected </trkpt>, found </trkseg>`.
    public var description: String

    public init(_ description: String) { self.description = description }
}
