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

    /// The point of a `location` event; nil for any other event, or one without `lat` and `lon`.
    public init?(_ line: EventLine) {
        guard line.type == "location", let coordinate = line.coordinate else { return nil }
        self.init(
            time: line.time,
            latitude: coordinate.latitude,
            longitude: coordinate.longitude,
            elevation: line.number("alt_msl"),
            speed: line.number("speed"),
            course: line.number("course")
        )
    }

    /// Whether GPX can hold the point: finite, latitude in -90 ... 90, longitude in -180 ... 180.
    var isWritable: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

extension GPXWriter {
    /// Splits a trip's points into the segments of one track, at the instants the receiver lost its fix.
    ///
    /// GPX starts a new `<trkseg>` "for each continuous span of track data": a gap at instant `g` ends the
    /// segment of the points at or before `g`, and the next point after `g` starts a new one. Gaps before the
    /// first point, after the last, or several between the same two points make no empty segment.
    ///
    /// - Parameters:
    ///   - points: the trip's points, in time order.
    ///   - gaps: when the fix was lost (the `time` of a `location_unknown`, `gpsd_unavailable` or `no_device`
    ///     error event), in any order.
    /// - Returns: the points in the same order, cut into non-empty segments; `[]` for no points.
    public static func segments(_ points: [TrackPoint], splitAt gaps: [Timestamp]) -> [[TrackPoint]] {
        guard !points.isEmpty else { return [] }
        let gaps = gaps.sorted()
        var nextGap = 0
        var segments: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        for point in points {
            var crossesGap = false
            while nextGap < gaps.count && gaps[nextGap] < point.time {
                crossesGap = true
                nextGap += 1
            }
            if crossesGap && !current.isEmpty {
                segments.append(current)
                current = []
            }
            current.append(point)
        }
        segments.append(current)
        return segments
    }
}
