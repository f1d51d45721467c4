/// How accurate a fix must be to be delivered: Core Location's `desiredAccuracy`, used as a threshold on the
/// receiver's horizontal accuracy (gpsd's `eph`, 95 %).
///
/// The named levels are Core Location's. `best` and `bestForNavigation` set no bound on the value: they take
/// what the receiver gives, as Core Location does; navigation also needs a 3D fix with a known accuracy. The
/// other levels are bounds in metres. A fix without an accuracy (receivers that report no DOP, GPX files
/// without `hdop`) is accepted only where a missing estimate cannot matter: `best`, and bounds of a kilometre
/// or more, which any 2D or 3D GNSS fix meets.
public enum DesiredAccuracy: Hashable, Sendable {
    case bestForNavigation
    case best
    /// A bound in metres; `nearest_ten_meters`, `hundred_meters`, `kilometer` and `three_kilometers` are
    /// 10, 100, 1,000 and 3,000.
    case meters(Double)

    /// The named levels of the configuration file, in order from the most to the least accurate.
    public static let named: [(name: String, accuracy: DesiredAccuracy)] = [
        ("best_for_navigation", .bestForNavigation), ("best", .best), ("nearest_ten_meters", .meters(10)),
        ("hundred_meters", .meters(100)), ("kilometer", .meters(1000)), ("three_kilometers", .meters(3000)),
    ]

    /// The bound below which a missing accuracy is not accepted.
    static let unknownAccuracyBound = 1000.0

    /// Whether a fix of `mode` with horizontal accuracy `accuracy` (nil when unknown) is accurate enough.
    public func accepts(_ accuracy: Double?, mode: FixMode) -> Bool {
        switch self {
        case .bestForNavigation:
            return accuracy != nil && mode == .threeD
        case .best:
            return true
        case .meters(let bound):
            guard let accuracy else { return bound >= Self.unknownAccuracyBound }
            return accuracy <= bound
        }
    }

    /// The name of the configuration file, or the metres it gives.
    public var configText: String {
        if let name = Self.named.first(where: { $0.accuracy == self })?.name { return "\"\(name)\"" }
        guard case .meters(let bound) = self else { return "" }
        return bound == bound.rounded() ? "\(Int(bound))" : "\(bound)"
    }
}
