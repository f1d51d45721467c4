/// What gpsd makes of a raw receiver log (NMEA, or any binary protocol gpsd reads): the gpsd JSON capture that
/// `waymark replay` then replays as it replays any capture, so a raw log and its capture give the same events.
///
/// ``record(_:from:gpsd:)`` runs a private gpsd as gpsd's own regression tests do (`gpsfake`): gpsd reads
/// the log's bytes as a `tcp://` device that waymark serves on 127.0.0.1, and only once the watch is on
/// (gpsd opens a device at its first watcher), so nothing of the log is lost; the log is followed by
/// newlines and `# EOF`, at which gpsd reports the device closed, the end. The watch asks for JSON and the
/// NMEA sentences (`"nmea":true`), as gpsd's `.chk` files have them, and ``GPSDOutputFilter`` keeps the
/// receiver's lines: for every log of `Tests/Fixtures/gpsd-logs` the capture is its `.chk`, byte for byte.
public struct RawLogCapture: Sendable {
    /// The capture: gpsd's JSON reports and the sentences it echoed, one a line.
    public let bytes: [UInt8]
    /// The JSON reports in it.
    public let reports: Int
    /// gpsd's release (`3.22`).
    public let release: String?
    /// Whether gpsd reported the end of the log; false when it went quiet without (a packet cut off at the
    /// end of the log can swallow the end mark), after ``quietEnd``.
    public let endReported: Bool

    /// How long gpsd may stay quiet once it has the whole log before the capture ends without its end mark.
    public static let quietEnd: Duration = .seconds(5)
    /// How long gpsd may neither read the log nor report before it counts as stalled.
    static let stallLimit: Duration = .seconds(30)
    /// How long gpsd may take to listen after it starts.
    static let startLimit: Duration = .seconds(10)
    /// Newlines between the log and its end mark: more than gpsd's longest packet (9,216 bytes in 3.22), so
    /// that a packet the log cuts off ends before the mark instead of taking it in.
    static let padding = 10_240

    /// Replays `log` (the bytes of the file at `path`, which only names it in messages) through a gpsd of its
    /// own, run from `gpsd`, and returns the capture. gpsd is stopped, and nothing of it is left, whatever
    /// happens, SIGHUP, SIGINT and SIGTERM included: they are caught meanwhile (unless ignored).
    ///
    /// - Throws: ``ReplayError`` with ``ReplayError/Code/gpsdFailed`` when gpsd does not start, exits or
    ///   stalls, drops waymark's connection or answers more than it can hold, and
    ///   ``ReplayError/Code/interrupted`` at SIGHUP, SIGINT or SIGTERM.
    public static func record(_ log: [UInt8], from path: String, gpsd: GPSDProgram) throws(ReplayError) -> Self {
        let trap = InterruptTrap()
        defer { trap.restore() }
        let session = try RawLogSession(program: gpsd, path: path, trap: trap)
        // gpsd is stopped before the signals are given back, so that no signal can leave it running.
        defer { session.end() }
        return try session.run(log + [UInt8](repeating: UInt8(ascii: "\n"), count: padding) + Array("# EOF\n".utf8))
    }

    /// Where a replayed capture came from, when gpsd read it from a raw log.
    public struct Origin: Sendable, Equatable {
        /// The gpsd that read it.
        public var program: GPSDProgram
        /// gpsd's release (`3.22`).
        public var release: String?
        /// The JSON reports gpsd made of the log.
        public var reports: Int
        /// Whether gpsd reported the end of the log (see ``RawLogCapture/endReported``).
        public var endReported: Bool
    }

    /// What the replay of this capture says of where it came from.
    public func origin(of program: GPSDProgram) -> Origin {
        Origin(program: program, release: release, reports: reports, endReported: endReported)
    }

    init(_ filter: GPSDOutputFilter, endReported: Bool) {
        bytes = filter.capture
        reports = filter.reports
        release = filter.release
        self.endReported = endReported
    }
}
