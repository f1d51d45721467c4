import WaymarkCore
import WaymarkFormats
import WaymarkUplink

/// The times of trips in the local time of their start places, for `waymark trips list --local`: each trip's
/// start and end in the IANA zone of its `start_place`, read from the zone files once per zone.
///
/// A trip whose start place has no zone (places off, or a site) or whose zone cannot be read keeps UTC; the
/// first such trip of each kind gives one warning, for the caller to print.
public struct LocalTripTimes {
    private let files: ZoneFiles
    private var zones: [String: Result<ZoneInfo, ZoneInfoError>] = [:]
    private var warnedWithoutZone = false

    public init(files: ZoneFiles = .system) { self.files = files }

    /// `trip`'s start and end in the zone of its start place, with a warning the first time a zone, or the
    /// lack of one, leaves a trip in UTC.
    public mutating func times(of trip: EventLine) -> (times: LocalTripTime, warning: String?) {
        let start = trip.string("start_time").flatMap { Timestamp(iso8601: $0) }
        let utc = LocalTripTime(start: start?.iso8601, end: trip.time.iso8601, zone: "UTC")
        guard let name = trip.place("start_place")?.timezone else {
            defer { warnedWithoutZone = true }
            let warning =
                warnedWithoutZone
                ? nil : "trips whose start place has no time zone (places off, or a site) are shown in UTC"
            return (utc, warning)
        }
        var warning: String?
        if zones[name] == nil {
            zones[name] = Result { () throws(ZoneInfoError) in try files.zone(named: name) }
            if case .failure(let error) = zones[name] { warning = "\(error); its trips are shown in UTC" }
        }
        guard case .success(let zone) = zones[name] else { return (utc, warning) }
        let end = trip.time.iso8601(utcOffsetSeconds: zone.localTime(at: trip.time.seconds).utcOffsetSeconds)
        let local = start.map { $0.iso8601(utcOffsetSeconds: zone.localTime(at: $0.seconds).utcOffsetSeconds) }
        return (LocalTripTime(start: local, end: end, zone: name), warning)
    }
}
