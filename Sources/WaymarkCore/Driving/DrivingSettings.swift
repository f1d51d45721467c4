/// `[driving]`: how the vehicle is driven, from the receiver's measured speed and course alone
/// (docs/driving.md). Speeds are metres per second here; the configuration file gives them in km/h.
public struct DrivingSettings: Hashable, Sendable {
    /// Whether `driving` events are emitted at all (the odometer counts either way).
    public var enabled: Bool
    /// Harsh acceleration and braking are judged only while every speed of the window is at least this.
    public var minSpeed: Double
    /// m/s²: the longitudinal acceleration above which a window is harsh acceleration.
    public var harshAcceleration: Double
    /// m/s² (positive): the deceleration above which a window is harsh braking.
    public var harshBraking: Double
    /// m/s²: the lateral acceleration (speed × the course's rate of turn) above which a window is harsh cornering.
    public var harshCornering: Double
    /// Cornering is judged only while every speed of the window is at least this: a slow vehicle's course is noise.
    public var corneringMinSpeed: Double
    /// How long a value must stay over its threshold to be an event.
    public var minDuration: Duration
    /// The span each value is measured over, at least one epoch: at 5–10 Hz it holds several fixes and the value
    /// is their least-squares slope.
    public var window: Duration
    /// m/s, 95 %: the error of a receiver-measured speed when the fix says nothing better. A fix's own `speed_acc`
    /// is taken only when it is smaller (gpsd 3.22 fills `speed_acc` for NMEA receivers with a bound it derives
    /// from position errors, tens of times what a Doppler speed's error is).
    public var speedError: Double
    /// The global speed limit; nil: none (a region's `speed_limit` still applies inside it).
    public var overspeedLimit: Double?
    /// How long the speed must stay over the limit before an `overspeed_start`.
    public var overspeedMinDuration: Duration
    /// An overspeed ends when the speed falls this far below the limit.
    public var overspeedHysteresis: Double

    public init(
        enabled: Bool = true,
        minSpeed: Double = 10 / 3.6,
        harshAcceleration: Double = 2.5,
        harshBraking: Double = 2.7,
        harshCornering: Double = 3.4,
        corneringMinSpeed: Double = 30 / 3.6,
        minDuration: Duration = .milliseconds(500),
        window: Duration = .seconds(1),
        speedError: Double = 0.5,
        overspeedLimit: Double? = nil,
        overspeedMinDuration: Duration = .seconds(5),
        overspeedHysteresis: Double = 5 / 3.6
    ) {
        self.enabled = enabled
        self.minSpeed = minSpeed
        self.harshAcceleration = harshAcceleration
        self.harshBraking = harshBraking
        self.harshCornering = harshCornering
        self.corneringMinSpeed = corneringMinSpeed
        self.minDuration = minDuration
        self.window = window
        self.speedError = speedError
        self.overspeedLimit = overspeedLimit
        self.overspeedMinDuration = overspeedMinDuration
        self.overspeedHysteresis = overspeedHysteresis
    }

    /// The longest step between two fixes that a value spans: a longer one is a gap in the data, and what was
    /// measured before it is forgotten.
    public static let maxStep = Duration.seconds(3)
    /// A value is meaningful when its 95 % error is at most this fraction of the threshold it is compared with.
    public static let maxErrorFraction = 0.5
}
