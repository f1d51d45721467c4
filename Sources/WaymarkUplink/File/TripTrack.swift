import WaymarkCore
import WaymarkGPX
import WaymarkStore

/// A trip's track for its GPX file: the trip's locations, split into segments where the fix was lost.
enum TripTrack {
    /// The segments of `events` (a trip's `location` and `error` events, in `seq` order) up to `end`: a new
    /// segment starts after each loss of fix.
    static func segments(of events: [StoredEvent], through end: Timestamp) throws -> [[TrackPoint]] {
        var points: [TrackPoint] = []
        points.reserveCapacity(events.count)
        var gaps: [Timestamp] = []
        for event in events where event.time <= end {
            // Nearly every line is a location as the encoder wrote it: read without decoding all of it.
            if event.kind == .location, let point = LocationLine.trackPoint(event.line) {
                points.append(point)
                continue
            }
            let line = try EventLine(event.line)
            if event.kind == .error {
                if let code = line.string("code"), Exporter.fixLossCodes.contains(code) { gaps.append(event.time) }
            } else if let point = TrackPoint(line) {
                points.append(point)
            }
        }
        return GPXWriter.segments(points, splitAt: gaps)
    }

    /// A waypoint for each `driving` event of `events` up to `end`, named by its kind, with its figures.
    static func waypoints(of events: [StoredEvent], through end: Timestamp) throws -> [Waypoint] {
        try events.filter { $0.kind == .driving && $0.time <= end }.compactMap { event in
            let line = try EventLine(event.line)
            guard let kind = line.string("kind"), let lat = line.number("lat"), let lon = line.number("lon") else {
                return nil
            }
            var figures: [String] = []
            let overspeed = kind.hasPrefix("overspeed")
            if let peak = line.number("peak") {
                if !overspeed {
                    figures.append("peak \(peak) m/s²")
                } else if let kmh = DrivingReport.wholeKmh(peak) {
                    figures.append("peak \(kmh) km/h")
                }
            }
            if let limit = line.number("limit").flatMap(DrivingReport.wholeKmh) {
                figures.append("limit \(limit) km/h")
            }
            if let duration = line.number("duration") { figures.append("\(duration) s") }
            return Waypoint(
                time: event.time,
                latitude: lat,
                longitude: lon,
                name: kind,
                description: figures.isEmpty ? nil : figures.joined(separator: ", "),
                type: "driving"
            )
        }
    }

    /// `2010-04-11T10-05-12.000Z.gpx`: the trip's start, with `-` for `:` so every file system takes it.
    static func fileName(start: Timestamp) -> String {
        String(decoding: start.iso8601.utf8.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
            + ".gpx"
    }

    /// The start a track's file name stands for, for pruning by age; nil for other names.
    static func day(ofFileName name: String) -> Int64? {
        guard name.hasSuffix(".gpx"), name.utf8.count > 10 else { return nil }
        return EventLogName(String(name.prefix(10)) + ".jsonl")?.day
    }
}
