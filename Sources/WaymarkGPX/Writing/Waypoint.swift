import WaymarkCore

/// A point of interest of a track's document (`<wpt>`): where a `driving` event happened on the trip.
public struct Waypoint: Hashable, Sendable {
    public var time: Timestamp
    /// Degrees north and east, WGS84; a waypoint GPX cannot hold (as ``TrackPoint``) is not written.
    public var latitude: Double
    public var longitude: Double
    /// `<name>`: the event's kind (`harsh_braking`).
    public var name: String
    /// `<desc>`: its figures, for a person.
    public var description: String?
    /// `<type>`: the event's type (`driving`).
    public var type: String?

    public init(
        time: Timestamp,
        latitude: Double,
        longitude: Double,
        name: String,
        description: String? = nil,
        type: String? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.description = description
        self.type = type
    }

    var isWritable: Bool {
        TrackPoint(time: time, latitude: latitude, longitude: longitude).isWritable
    }
}
