/// `[activity]`: Core Location's automatic pauses (`pausesLocationUpdatesAutomatically`, `activityType`)
/// for a vehicle, the GNSS power saving while paused, and trips.
public struct ActivitySettings: Hashable, Sendable {
    /// What moves the receiver; it chooses the defaults of the thresholds (``init(type:)``).
    public enum ActivityType: String, Hashable, Sendable, CaseIterable {
        /// A car, van, bus or truck on roads.
        case automotiveNavigation = "automotive_navigation"
        /// Boats, trains and other vehicles off the road.
        case otherNavigation = "other_navigation"
        /// A person walking, running or cycling.
        case fitness
        /// Aircraft.
        case airborne
        /// Anything else.
        case other
    }

    public var type: ActivityType
    /// Whether location delivery pauses by itself (stationary, or no fix): Core Location's default, true.
    public var pausesAutomatically: Bool
    /// Standing still this long pauses, and ends the trip.
    public var pauseAfter: Duration
    /// Metres within which the vehicle counts as standing still (more when the fixes' own accuracy is
    /// worse, up to three times this).
    public var stationaryRadius: Double
    /// Receiver-measured speed, metres per second, below which the vehicle counts as standing still and
    /// at or above which (for ``confirmingFixes`` fixes in a row) it counts as moving.
    public var stationarySpeed: Double
    /// No usable fix this long pauses with reason `no_fix`.
    public var noFixPauseAfter: Duration
    /// Fixes less accurate than this many metres (95 %) say nothing about movement: they are no usable fix.
    public var maxAccuracy: Double
    /// Whether the agent stops the gpsd watch while paused and probes every ``probeInterval``.
    public var powerSave: Bool
    /// How often a paused agent watches again to see whether the vehicle moves.
    public var probeInterval: Duration
    /// How long a probe waits for fixes before it gives up until the next one.
    public var probeTimeout: Duration

    /// Consecutive usable fixes, spanning at least ``confirmingSpan``, that must each show movement
    /// (outside the radius, or at least ``stationarySpeed``) before the vehicle counts as moving: a
    /// single jump of a parked receiver's position, or one noisy speed, is not a departure.
    public static let confirmingFixes = 3
    public static let confirmingSpan = Duration.seconds(2)
    /// A stop inside a trip shorter than this is not counted (slowing down at a junction is no stop).
    public static let shortestStop = Duration.seconds(10)

    /// The defaults for `type`, from what the captures in `Tests/Fixtures/gpsd-logs` show (see
    /// `config/waymark.toml` for the reasons).
    public init(type: ActivityType = .automotiveNavigation) {
        self.type = type
        pausesAutomatically = true
        maxAccuracy = 100
        powerSave = true
        probeInterval = .seconds(120)
        probeTimeout = .seconds(30)
        // pause_after (s), stationary_radius (m), stationary_speed (m/s), no_fix_pause_after (s)
        let (pause, radius, speed, noFix): (Int64, Double, Double, Int64) =
            switch type {
            case .automotiveNavigation: (300, 50, 1.5, 600)
            case .otherNavigation: (600, 100, 1, 600)
            case .fitness: (120, 25, 0.8, 300)
            case .airborne: (600, 200, 5, 600)
            case .other: (300, 50, 1, 300)
            }
        pauseAfter = .seconds(pause)
        stationaryRadius = radius
        stationarySpeed = speed
        noFixPauseAfter = .seconds(noFix)
    }
}
