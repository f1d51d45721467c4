/// One TPV report exactly as gpsd sent it, before epochs are assembled.
///
/// Several reports can belong to one epoch (same `time`); ``EpochAssembler`` turns them into one
/// ``Location``. Non-finite numbers are already absent here.
public struct FixReport: Hashable, Sendable {
    /// GPS time; absent until the receiver has sent a date (RMC or ZDA).
    public var time: Timestamp?
    public var mode: FixMode
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeHAE: Double?
    public var altitudeMSL: Double?
    /// gpsd's `eph`, metres.
    public var horizontalError: Double?
    /// gpsd's `epx` and `epy`, metres.
    public var longitudeError: Double?
    public var latitudeError: Double?
    /// gpsd's `epv`, metres.
    public var verticalError: Double?
    /// Speed and course: only what the receiver measured (gpsd's `TRACK_SET`).
    public var speed: Double?
    public var speedError: Double?
    public var course: Double?
    public var courseError: Double?

    public init(
        time: Timestamp? = nil,
        mode: FixMode = .notSeen,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitudeHAE: Double? = nil,
        altitudeMSL: Double? = nil,
        horizontalError: Double? = nil,
        longitudeError: Double? = nil,
        latitudeError: Double? = nil,
        verticalError: Double? = nil,
        speed: Double? = nil,
        speedError: Double? = nil,
        course: Double? = nil,
        courseError: Double? = nil
    ) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.horizontalError = horizontalError
        self.longitudeError = longitudeError
        self.latitudeError = latitudeError
        self.verticalError = verticalError
        self.speed = speed
        self.speedError = speedError
        self.course = course
        self.courseError = courseError
    }

    /// True when the report carries a position gpsd calls a fix.
    public var hasPosition: Bool { mode.hasFix && latitude != nil && longitude != nil }

    /// How many of the optional fields are present: the tie-breaker for "most complete". Plain additions,
    /// no array: it runs twice for every TPV of every epoch.
    var fieldCount: Int {
        var count = present(latitude) + present(longitude) + present(altitudeHAE) + present(altitudeMSL)
        count += present(horizontalError) + present(longitudeError) + present(latitudeError) + present(verticalError)
        count += present(speed) + present(speedError) + present(course) + present(courseError)
        return count
    }
}

private func present(_ value: Double?) -> Int { value == nil ? 0 : 1 }
