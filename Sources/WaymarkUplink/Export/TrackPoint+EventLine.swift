import WaymarkGPX

extension TrackPoint {
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
}
