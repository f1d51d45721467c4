import WaymarkCore

/// A recorded drive played back through the same pipeline as a live connection, on a simulated clock.
public protocol ReplaySource: AnyObject {
    /// The next update, or nil at the end of the recording.
    func next() -> SourceUpdate?
}

/// Opening a recording for replay.
public enum Replay {
    /// Opens a gpsd JSON capture (what `gpspipe -w` writes), decoded by `decoder`, or a GPX 1.1 file, told
    /// apart by content.
    public static func open(
        contentsOf path: String,
        decoder: CaptureDecoder = .builtin
    ) throws(ReplayError) -> any ReplaySource {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw ReplayError("\(path): \(error.message)")
        }
        let firstByte = bytes.first { ![0x20, 0x09, 0x0D, 0x0A, 0xEF, 0xBB, 0xBF].contains($0) }
        guard firstByte == UInt8(ascii: "<") else { return CaptureReplay(bytes: bytes, decoder: decoder) }
        do {
            return GPXReplay(try GPXFile.parse(bytes, fileName: path))
        } catch {
            throw ReplayError(error.description)
        }
    }
}

/// A recording that cannot be replayed: unreadable, or a GPX file that is not well-formed.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, starting with the path (and line): `drive.gpx:57: expected </trkpt>, found </trkseg>`.
    public var description: String

    public init(_ description: String) { self.description = description }
}
