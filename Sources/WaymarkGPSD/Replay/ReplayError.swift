/// A recording that cannot be replayed: unreadable, no recording at all, a GPX file that is not well-formed,
/// or a raw receiver log that gpsd could not read for it.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for the exit status: a struct over a private enum, so that kinds can be added.
    public struct Code: Hashable, Sendable {
        private enum Value: Hashable, Sendable {
            case refused, gpsdMissing, gpsdFailed, interrupted
        }

        private let value: Value

        /// The file cannot be read, or is no recording `waymark replay` takes.
        public static let refused = Code(value: .refused)
        /// The file is a raw receiver log, or may be one, and there is no gpsd to read it.
        public static let gpsdMissing = Code(value: .gpsdMissing)
        /// The gpsd that read a raw receiver log failed: it did not start, exited or stalled.
        public static let gpsdFailed = Code(value: .gpsdFailed)
        /// SIGHUP, SIGINT or SIGTERM came while gpsd read a raw receiver log (``ReplayError/signal``).
        public static let interrupted = Code(value: .interrupted)
    }

    /// What went wrong, starting with the path (and line): `drive.gpx:57: expected </trkpt>, found </trkseg>`.
    public var description: String
    /// What kind of failure.
    public var code: Code
    /// The signal that stopped the replay, with ``Code/interrupted``.
    public var signal: Int32?

    public init(_ description: String, code: Code = .refused, signal: Int32? = nil) {
        self.description = description
        self.code = code
        self.signal = signal
    }
}
