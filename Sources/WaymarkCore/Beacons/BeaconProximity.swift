/// How near a ranged beacon is (Core Location's `CLProximity`), from its estimated distance.
///
/// Immediate is below 0.5 m, near below 3 m, far from 3 m on. With hysteresis: a beacon leaves its class only
/// when the distance passes the class's boundary by a factor of ``hysteresis`` (1.25), so a beacon at a boundary
/// does not flap:
///
/// | from | stays while the distance is | e.g. |
/// |---|---|---|
/// | immediate | up to 0.625 m | 0.6 m stays immediate |
/// | near | 0.4 m to 3.75 m | 3.5 m stays near, 3.8 m is far |
/// | far | 2.4 m or more | 2.5 m stays far, 2.3 m is near |
///
/// Once it leaves, the class is the plain one of the distance. From unknown, the plain class applies at once.
public enum BeaconProximity: String, Hashable, Sendable, CaseIterable {
    case immediate
    case near
    case far
    /// No distance: not heard within the smoothing window, or no distance could be estimated.
    case unknown

    /// Below this distance, in metres, a beacon is immediate.
    public static let immediateBelow = 0.5
    /// Below this distance, in metres, a beacon is near; from it on, far.
    public static let nearBelow = 3.0
    /// How far past a boundary a distance must go, as a factor, before the class changes.
    public static let hysteresis = 1.25

    /// The class of a distance in metres, without hysteresis; unknown for a negative or non-finite distance.
    public init(distanceMeters: Double) {
        guard distanceMeters >= 0, distanceMeters.isFinite else {
            self = .unknown
            return
        }
        if distanceMeters < Self.immediateBelow {
            self = .immediate
        } else if distanceMeters < Self.nearBelow {
            self = .near
        } else {
            self = .far
        }
    }

    /// The class of a distance in metres for a beacon that was `previous`: `previous` while the distance is within
    /// its boundaries widened by ``hysteresis``, else the plain class of the distance.
    public init(distanceMeters: Double, previous: BeaconProximity) {
        let plain = BeaconProximity(distanceMeters: distanceMeters)
        let keeps: Bool
        switch previous {
        case .immediate: keeps = distanceMeters <= Self.immediateBelow * Self.hysteresis
        case .near:
            keeps =
                distanceMeters >= Self.immediateBelow / Self.hysteresis
                && distanceMeters <= Self.nearBelow * Self.hysteresis
        case .far: keeps = distanceMeters >= Self.nearBelow / Self.hysteresis
        case .unknown: keeps = false
        }
        self = plain != .unknown && keeps ? previous : plain
    }
}
