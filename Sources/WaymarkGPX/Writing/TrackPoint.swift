import WaymarkCore

/// One point of a GPX track (`<trkpt>`): a fix as a `location` event reports it.
public struct TrackPoint: Hashable, Sendable {
    /// GPS time of the fix.
    public var time: Timestamp
    /// Degrees north, WGS84; a point outside -90 ... 90 is not written.
    public var latitude: Double
    /// Degrees east, WGS84; a point outside -180 ... 180 is not written, 180 is written as -180.
    public var longitude: Double
    /// Height above mean sea level, metres (`<ele>`; the event's `alt_msl`).
    public var elevation: Double?
    /// Speed over ground, metres per second, as the receiver measured it.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north, as the receiver measured it.
    public var course: Double?

    public init(
        time: Timestamp,
        latitude: Double,
        longitude: Double,
        elevation: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.speed = speed
        self.course = course
    }

    /// Whether GPX can hold the point: finite, latitude in -90 ... 90, longitude in -180 ... 180.
    var isWritable: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
