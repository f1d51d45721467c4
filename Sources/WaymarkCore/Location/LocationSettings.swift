/// `[location]`: which fixes become `location` events (docs/locations.md, "Which fixes become locations"; Core
/// Location's standard and significant-change services, and the triggers of fleet trackers).
///
/// In the standard mode a fix that passes the checks (fresh, in order, accurate enough) is delivered when a
/// trigger fires: the distance from the last delivery reaches ``distanceFilter``; ``heartbeat`` has passed
/// since the last delivery; and while moving, ``minInterval`` has passed, the course turned by
/// ``angleFilter`` or the speed changed by ``speedDelta``. With no trigger set (all zero, the default) every
/// such fix is delivered, as with Core Location's `kCLDistanceFilterNone`.
///
/// Intervals between fixes are measured between their GPS times, which the freshness check keeps in order:
/// a capture fed to gpsd faster than real time gives the same deliveries as the drive itself.
public struct LocationSettings: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        case standard
        /// Deliver only after ``LocationSettings/significantDistance`` of movement and
        /// ``LocationSettings/significantInterval`` since the last delivery (and on ``heartbeat``).
        case significantChange = "significant_change"
    }

    public var mode: Mode
    public var desiredAccuracy: DesiredAccuracy
    /// Metres from the last delivered location; 0 sets no distance trigger. A displacement within the new
    /// fix's horizontal accuracy does not count.
    public var distanceFilter: Double
    /// A fix that reaches the agent this much later than the fixes around it is stale; zero checks only order.
    public var maxFixAge: Duration
    /// While moving, deliver at least this often; zero is off.
    public var minInterval: Duration
    /// Deliver at least this often, moving or not; zero is off.
    public var heartbeat: Duration
    /// While moving, a course change of this many degrees since the last delivery; 0 is off.
    public var angleFilter: Double
    /// A change of the measured speed of this many metres per second since the last delivery; 0 is off.
    public var speedDelta: Double
    /// The receiver-measured speed, metres per second, from which the vehicle counts as moving: below it a
    /// receiver's course is noise.
    public var movingSpeed: Double
    /// Significant-change mode: metres of movement since the last delivery.
    public var significantDistance: Double
    /// Significant-change mode: time since the last delivery.
    public var significantInterval: Duration

    public init(
        mode: Mode = .standard,
        desiredAccuracy: DesiredAccuracy = .best,
        distanceFilter: Double = 0,
        maxFixAge: Duration = .seconds(10),
        minInterval: Duration = .zero,
        heartbeat: Duration = .zero,
        angleFilter: Double = 0,
        speedDelta: Double = 0,
        movingSpeed: Double = 2,
        significantDistance: Double = 500,
        significantInterval: Duration = .seconds(300)
    ) {
        self.mode = mode
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
        self.maxFixAge = maxFixAge
        self.minInterval = minInterval
        self.heartbeat = heartbeat
        self.angleFilter = angleFilter
        self.speedDelta = speedDelta
        self.movingSpeed = movingSpeed
        self.significantDistance = significantDistance
        self.significantInterval = significantInterval
    }

    /// Whether any trigger of the standard mode is set; without one, every checked fix is delivered.
    var hasTrigger: Bool {
        distanceFilter > 0 || minInterval > .zero || heartbeat > .zero || angleFilter > 0 || speedDelta > 0
    }
}
