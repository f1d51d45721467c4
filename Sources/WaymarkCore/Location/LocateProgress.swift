/// What a ``LocateSearch`` tells a person while it searches; each case describes itself in one line.
public enum LocateProgress: Hashable, Sendable {
    /// Connected to gpsd; `release` is gpsd's version when known.
    case connected(server: String, release: String?)
    /// The connection to gpsd was lost; the source reconnects and the search goes on.
    case gpsdLost(server: String, reason: String)
    /// gpsd reports this receiver active.
    case receiverActive(path: String)
    /// gpsd reports no receiver at all; the search fails unless one appears within `grace`.
    case noReceiver(grace: Duration)
    /// The receiver went away; the search waits for it until the timeout.
    case receiverGone(path: String)
    /// The receiver reports, but has no fix yet (said once).
    case waitingForFix
    /// gpsd reported an error of its own.
    case gpsdError(message: String)
    /// A fix more accurate than any before: the new best, `elapsed` after the start.
    case improved(Location, elapsed: Duration, meetsAccuracy: Bool)
    /// A fix that was not considered, and why.
    case ignored(Location, reason: IgnoreReason)

    /// Why a fix was not considered.
    public enum IgnoreReason: Hashable, Sendable {
        /// The fix's mode is below 2D.
        case noFixMode(FixMode)
        /// The horizontal accuracy is negative or not a number (Core Location's `horizontalAccuracy < 0`).
        case invalidAccuracy(Double)
        /// Latitude or longitude not a number or out of range.
        case invalidPosition
        /// It reached the agent `age` later than the fixes around it (``FixFreshness``).
        case stale(age: Duration)
        /// Its GPS time is before the newest fix already considered.
        case outOfOrder
        /// Its GPS time is that of the newest fix already considered.
        case duplicate
        /// Its GPS time ran ahead of its arrival by `lead`, more than an hour: a receiver's date glitch.
        case timeJump(lead: Duration)
    }
}

extension LocateProgress: CustomStringConvertible {
    public var description: String {
        switch self {
        case .connected(let server, let release):
            return "connected to gpsd\(release.map { " \($0)" } ?? "") at \(server)"
        case .gpsdLost(let server, let reason):
            return "lost gpsd at \(server): \(reason); reconnecting until the timeout"
        case .receiverActive(let path):
            return "receiver \(path) is active"
        case .noReceiver(let grace):
            return "gpsd has no receiver; waiting \(Self.describe(grace)) for one to appear"
        case .receiverGone(let path):
            return "the receiver \(path) went away; waiting for it until the timeout"
        case .waitingForFix:
            return "the receiver has no fix yet; waiting"
        case .gpsdError(let message):
            return "gpsd reported: \(message)"
        case .improved(let location, let elapsed, let meetsAccuracy):
            let verdict = meetsAccuracy ? "meets the desired accuracy" : "best so far"
            return "\(Self.describe(elapsed)): \(Self.describe(location)): \(verdict)"
        case .ignored(let location, let reason):
            return "ignored the fix of \(location.time): \(reason)"
        }
    }

    /// `49.015381, 12.101622 ±41.8 m (3D fix of 2027-08-03T21:26:15.879Z)`.
    static func describe(_ location: Location) -> String {
        let accuracy = location.horizontalAccuracy.map { "±\(decimal($0, digits: 1)) m" } ?? "accuracy unknown"
        let mode = location.mode == .threeD ? "3D" : "2D"
        return "\(decimal(location.latitude, digits: 6)), \(decimal(location.longitude, digits: 6)) \(accuracy) "
            + "(\(mode) fix of \(location.time))"
    }

    /// A duration to the tenth of a second: `0.4 s`, `60 s`.
    static func describe(_ duration: Duration) -> String {
        let text = decimal(duration.secondsValue, digits: 1)
        return "\(text.hasSuffix(".0") ? String(text.dropLast(2)) : text) s"
    }

    /// `value` rounded to `digits` decimals, written out without an exponent.
    static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e17 else { return "\(value)" }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(units)" }
        let fraction = String(units % divisor)
        let padding = String(repeating: "0", count: digits - fraction.count)
        return "\(sign)\(units / divisor).\(padding)\(fraction)"
    }
}

extension LocateProgress.IgnoreReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noFixMode(let mode): "mode \(mode.rawValue) is not a 2D or 3D fix"
        case .invalidAccuracy(let accuracy): "its horizontal accuracy \(accuracy) is invalid"
        case .invalidPosition: "its latitude or longitude is out of range"
        case .stale(let age): "stale: it arrived \(LocateProgress.describe(age)) later than the fixes around it"
        case .outOfOrder: "out of order: older than a fix already considered"
        case .duplicate: "the same epoch as a fix already considered"
        case .timeJump(let lead): "its time is \(LocateProgress.describe(lead)) ahead of the fixes before it"
        }
    }
}
