/// How far a magnetic compass can be trusted at a place, by the strength of the horizontal field H.
///
/// The WMM reports (and MIL-PRF-89500B) define the zones around the magnetic poles: in the blackout zone
/// (H < 2000 nT) the declination is inaccurate and compasses are unreliable, so a magnetic heading there
/// has no valid accuracy; in the caution zone (2000 nT ≤ H < 6000 nT) compass accuracy may be degraded.
/// The older thresholds of 1000 nT and 5000 nT are outdated.
public enum MagneticZone: String, Hashable, Sendable, CustomStringConvertible {
    /// H ≥ 6000 nT.
    case normal
    /// 2000 nT ≤ H < 6000 nT.
    case caution
    /// H < 2000 nT.
    case blackout

    /// H below which a place is in the blackout zone, nT.
    public static let blackoutBelow = 2_000.0
    /// H below which a place is in the caution zone (or the blackout zone), nT.
    public static let cautionBelow = 6_000.0

    /// The zone for a horizontal intensity in nT. A NaN intensity gives ``blackout``: no trust.
    public init(horizontalIntensity: Double) {
        if horizontalIntensity.isNaN || horizontalIntensity < Self.blackoutBelow {
            self = .blackout
        } else if horizontalIntensity < Self.cautionBelow {
            self = .caution
        } else {
            self = .normal
        }
    }

    /// `normal`, `caution` or `blackout`, as the JSON output writes it.
    public var description: String { rawValue }
}
