import WaymarkCore
import WaymarkGPX
import WaymarkSystem

/// A recorded drive played back through the same pipeline as a live connection, on a simulated clock.
public protocol ReplaySource: AnyObject {
    /// The next update, or nil at the end of the recording.
    func next() -> SourceUpdate?
}

/// Opening a recording for replay.
public enum Replay {
    /// Opens a gpsd JSON capture (what `gpspipe -w` writes), decoded by `decoder`, a GPX 1.1 file, or a raw
    /// receiver log, told apart by content; `routeSpeed` (metres per second) times a GPX route's points that
    /// have no `time` (``GPXFile/parse(_:fileName:routeSpeed:)``).
    ///
    /// A raw receiver log (NMEA, or a binary protocol gpsd reads) is read by a gpsd of its own
    /// (``RawLogCapture``) into a capture, replayed as any capture is. That gpsd is `gpsdOverride` (the `GPSD`
    /// environment variable) when given, else found in the standard places and `searchPath` (`PATH`); see
    /// ``GPSDProgram/locate(override:searchPath:for:)``. A file in which gpsd finds no report is refused.
    public static func open(
        contentsOf path: String,
        decoder: CaptureDecoder = .builtin,
        routeSpeed: Double? = nil,
        gpsdOverride: String? = nil,
        searchPath: String? = nil
    ) throws(ReplayError) -> any ReplaySource {
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(path)
        } catch {
            throw ReplayError("\(path): \(error.withoutPath)")
        }
        let firstByte = bytes.first { ![0x20, 0x09, 0x0D, 0x0A, 0xEF, 0xBB, 0xBF].contains($0) }
        guard firstByte == UInt8(ascii: "<") else {
            if routeSpeed != nil {
                throw ReplayError(
                    "\(path): --route-speed times a GPX route; this is not GPX, and a capture has its times"
                )
            }
            let sentences = try sentencesUnlessCapture(bytes, path)
            guard let sentences else { return CaptureReplay(bytes: bytes, decoder: decoder) }
            let purpose =
                sentences > 0
                ? "\(path) is a raw receiver log (\(sentences) NMEA sentences): waymark replays it through gpsd"
                : "\(path) is neither a gpsd JSON capture nor a GPX file: if it is a receiver's binary log, "
                    + "waymark replays it through gpsd"
            let program = try GPSDProgram.locate(override: gpsdOverride, searchPath: searchPath, for: purpose)
            let capture = try RawLogCapture.record(bytes, from: path, gpsd: program)
            guard capture.reports > 0 else {
                throw ReplayError(
                    "\(path) is neither a gpsd JSON capture, a GPX file nor a receiver log: gpsd "
                        + "\(capture.release ?? "") found no report in its \(bytes.count) bytes"
                )
            }
            return CaptureReplay(bytes: capture.bytes, decoder: decoder, rawLog: capture.origin(of: program))
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
    /// nil for a gpsd JSON capture: a line starts with a gpsd object, `{"class"` (spaces allowed after the
    /// brace). Else the number of NMEA sentences in what may be a raw receiver log: a binary log has lines that
    /// start with a bare `{` somewhere (a newline byte and a brace byte), and is no capture for that. A file of
    /// nothing but white space is refused.
    static func sentencesUnlessCapture(_ bytes: [UInt8], _ path: String) throws(ReplayError) -> Int? {
        let classKey = Array(#""class""#.utf8)
        var sentences = 0
        var blank = true
        var index = 0
        while index < bytes.count {
            // Indentation and a byte order mark come before a line's first character.
            while index < bytes.count, [0x20, 0x09, 0x0D, 0xEF, 0xBB, 0xBF].contains(bytes[index]) { index += 1 }
            let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if index < lineEnd { blank = false }
            if index < lineEnd, bytes[index] == UInt8(ascii: "{") {
                var key = index + 1
                while key < lineEnd, bytes[key] == 0x20 || bytes[key] == 0x09 { key += 1 }
                if bytes[key..<lineEnd].starts(with: classKey) { return nil }
            } else if index < lineEnd, bytes[index] == UInt8(ascii: "$") || bytes[index] == UInt8(ascii: "!") {
                sentences += 1
            }
            index = lineEnd + 1
        }
        guard !blank else {
            throw ReplayError("\(path) is empty: no gpsd JSON capture, GPX file or receiver log to replay")
        }
        return sentences
    }
}
