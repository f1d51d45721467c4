/// A position fix delivered by the receiver: one per epoch, the most complete report of that epoch.
///
/// Optional fields are absent when the receiver did not report them (gpsd's NaN); `speed` and `course`
/// are present only when the receiver measured them, never when gpsd computed them from positions.
public struct Location: Hashable, Sendable {
    /// GPS time of the fix (UTC).
    public var time: Timestamp
    /// Degrees north, WGS84, -90 ... 90.
    public var latitude: Double
    /// Degrees east, WGS84, -180 ... 180.
    public var longitude: Double
    /// Height above the WGS84 ellipsoid, metres.
    public var altitudeHAE: Double?
    /// Height above mean sea level, metres.
    public var altitudeMSL: Double?
    /// Horizontal accuracy, metres (95 %): gpsd's `eph`, else the combination of `epx` and `epy`.
    public var horizontalAccuracy: Double?
    /// Vertical accuracy, metres (95 %): gpsd's `epv`.
    public var verticalAccuracy: Double?
    /// Speed over ground, metres per second, as measured by the receiver.
    public var speed: Double?
    public var speedAccuracy: Double?
    /// Course over ground, degrees clockwise from true north, as measured by the receiver.
    public var course: Double?
    public var courseAccuracy: Double?
    public var mode: FixMode

    public init(
        time: Timestamp,
        latitude: Double,
        longitude: Double,
        altitudeHAE: Double? = nil,
        altitudeMSL: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        speed: Double? = nil,
        speedAccuracy: Double? = nil,
        course: Double? = nil,
        courseAccuracy: Double? = nil,
        mode: FixMode = .threeD
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.mode = mode
    }
}

/// gpsd's fix mode.
public enum FixMode: Int, Hashable, Sendable, Comparable {
    /// The receiver has not reported a mode yet.
    case notSeen = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public var hasFix: Bool { self >= .twoD }

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}
