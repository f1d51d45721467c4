import WaymarkFormats

/// Writes events as JSON Lines (docs/events.md, "Events"): one object per line, snake_case keys, absent fields
/// left out (never `null` or `NaN`).
///
/// Hand-written rather than `JSONEncoder`: replay encodes hundreds of thousands of events per second, and
/// the key order is fixed (`type`, `seq`, `time`, `recv`, `device`, then the payload) so lines diff well.
public struct EventEncoder: Sendable {
    /// `[agent] device_id`; written as `device` when set (uplink payloads).
    public var deviceID: String?

    public init(deviceID: String? = nil) { self.deviceID = deviceID }

    /// Appends one line, newline included, to `buffer`.
    public func encode(_ event: Event, into buffer: inout [UInt8]) {
        encode(event, into: &buffer, numbered: true) { _ in }
    }

    /// Appends one line for `event` with the members `extra` writes after the event's own; without `seq` when
    /// not `numbered` (an answer outside the device's event stream, such as `waymark locate`'s).
    func encode(
        _ event: Event,
        into buffer: inout [UInt8],
        numbered: Bool,
        extra: (inout JSONObjectWriter) -> Void
    ) {
        JSONObjectWriter.write(into: &buffer) { writer in
            writer.string("type", event.type)
            if numbered { writer.integer("seq", Int64(truncatingIfNeeded: event.seq)) }
            writer.timestamp("time", event.time)
            if let received = event.received { writer.timestamp("recv", received) }
            if let deviceID { writer.string("device", deviceID) }
            switch event.kind {
            case .location(let location):
                writer.location(location)
            case .heading(let heading):
                writer.number("magnetic", heading.magnetic)
                writer.number("true", heading.trueHeading)
                writer.number("accuracy", heading.accuracy)
                writer.string("source", heading.source.rawValue)
                writer.number("declination", heading.declination)
            case .region(let region):
                writer.string("event", region.crossing.rawValue)
                writer.string("id", region.id)
                writer.number("lat", region.position.latitude)
                writer.number("lon", region.position.longitude)
                writer.timestamp("confirmed", region.confirmed)
                if region.offline { writer.boolean("offline", true) }
            case .beaconRegion(let region):
                writer.string("event", region.crossing.rawValue)
                writer.string("id", region.id)
                writer.coordinate(region.position)
                if let beacon = region.beacon { writer.beacon(beacon) }
            case .beacon(let report):
                writer.string("event", report.change.rawValue)
                writer.string("id", report.beacon.regionID)
                writer.beacon(report.beacon.beacon)
                writer.string("proximity", report.beacon.proximity.rawValue)
                if report.beacon.accuracy >= 0 {
                    writer.number("accuracy", JSONObjectWriter.rounded(report.beacon.accuracy, places: 2))
                }
                if report.beacon.rssi != 0 { writer.integer("rssi", Int64(report.beacon.rssi)) }
                writer.integer("measured_power", Int64(report.beacon.measuredPower))
            case .regionState(let report):
                writer.string("state", report.state.rawValue)
                writer.string("id", report.id)
            case .pause(let pause):
                writer.string("reason", pause.reason.rawValue)
                writer.coordinate(pause.position)
                if let since = pause.since { writer.timestamp("since", since) }
                writer.place("place", pause.place)
            case .resume(let resume):
                writer.string("reason", resume.reason.rawValue)
                writer.coordinate(resume.position)
                writer.number("distance", resume.distance.map { JSONObjectWriter.rounded($0, places: 1) })
            case .trip(let trip):
                writer.trip(trip)
            case .deferredFinished(let report):
                writer.string("reason", report.reason.rawValue)
                writer.integer("events", Int64(report.events))
                writer.number("distance", report.distance.map { JSONObjectWriter.rounded($0, places: 1) })
                writer.number("duration", report.duration.map { JSONObjectWriter.rounded($0.secondsValue, places: 3) })
            case .status(let status):
                writer.string("gpsd", status.gpsd.rawValue)
                if let device = status.device { writer.string("device_path", device) }
                writer.integer("fix_mode", Int64(status.fixMode.rawValue))
                if let used = status.satellitesUsed { writer.integer("satellites_used", Int64(used)) }
                if let last = status.lastKnown {
                    writer.timestamp("last_location_time", last.time)
                    writer.number("lat", last.latitude)
                    writer.number("lon", last.longitude)
                    writer.number("h_acc", last.horizontalAccuracy)
                }
            case .error(let report):
                writer.string("code", report.code.rawValue)
                if let subject = report.subject { writer.string("id", subject) }
                writer.string("message", report.message)
            case .alarmCleared(let clearance):
                writer.string("code", clearance.code.rawValue)
                if let subject = clearance.subject { writer.string("id", subject) }
                writer.string("message", clearance.message)
                writer.number("duration", JSONObjectWriter.rounded(clearance.duration.secondsValue, places: 3))
            case .command(let report):
                if let action = report.action { writer.string("action", action) }
                if let id = report.id { writer.string("id", id) }
                writer.boolean("ok", report.ok)
                writer.string("message", report.message)
                if let digest = report.configDigest { writer.string("config_digest", digest) }
            case .beaconAdvertising(let report):
                writer.string("event", report.change.rawValue)
                writer.string("reason", report.reason)
                if let id = report.regionID { writer.string("id", id) }
                writer.beacon(report.beacon)
            case .driving(let report):
                writer.driving(report)
            }
            extra(&writer)
        }
    }

    /// One event as a line of text, without the newline.
    public func line(_ event: Event) -> String {
        var buffer: [UInt8] = []
        encode(event, into: &buffer)
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }
}

extension JSONObjectWriter {
    /// An iBeacon's identity: `uuid`, `major`, `minor`.
    fileprivate mutating func beacon(_ beacon: BeaconID) {
        string("uuid", beacon.uuid.description)
        integer("major", Int64(beacon.major))
        integer("minor", Int64(beacon.minor))
    }

    fileprivate mutating func coordinate(_ coordinate: Coordinate?) {
        guard let coordinate else { return }
        number("lat", coordinate.latitude)
        number("lon", coordinate.longitude)
    }

    /// A `driving` event's fields: `kind`, `peak` (m/s² to 0.01, or m/s to 0.01 for an overspeed), `duration`
    /// (seconds to the millisecond), `speed`, `speed_after`, `limit` (m/s), `direction`, the place and `reason`.
    fileprivate mutating func driving(_ report: DrivingReport) {
        string("kind", report.kind.rawValue)
        coordinate(report.position)
        number("peak", Self.rounded(report.peak, places: 2))
        number("duration", Self.rounded(report.duration.secondsValue, places: 3))
        number("speed", Self.rounded(report.speed, places: 2))
        number("speed_after", report.speedAfter.map { Self.rounded($0, places: 2) })
        number("limit", report.limit.map { Self.rounded($0, places: 2) })
        if let direction = report.direction { string("direction", direction) }
        if let reason = report.reason { string("reason", reason) }
    }

    /// A trip's summary; its end is the event's `time`, `lat` and `lon`.
    fileprivate mutating func trip(_ trip: TripSummary) {
        string("reason", trip.endReason.rawValue)
        coordinate(trip.endPosition)
        timestamp("start_time", trip.start)
        number("start_lat", trip.startPosition.latitude)
        number("start_lon", trip.startPosition.longitude)
        number("distance", Self.rounded(trip.distance, places: 1))
        number("duration", trip.duration.secondsValue)
        number("moving_time", trip.movingTime.secondsValue)
        number("idle_time", trip.idleTime.secondsValue)
        integer("stops", Int64(trip.stops))
        number("max_speed", trip.maxSpeed)
        number("avg_speed", trip.averageSpeed.map { Self.rounded($0, places: 3) })
        strings("regions_entered", trip.regionsEntered)
        place("start_place", trip.startPlace)
        place("end_place", trip.endPlace)
        number("odometer_m", trip.odometer.map { Self.rounded($0, places: 1) })
        guard let driving = trip.driving else { return }
        object("driving") { writer in
            for (key, name) in Self.drivingKeys {
                let entry = driving.entries[name] ?? DrivingTally.Entry()
                writer.object(key) { writer in
                    writer.integer("count", Int64(entry.count))
                    writer.number("worst", entry.worst.map { Self.rounded($0, places: 2) })
                    if name == "overspeed" {
                        writer.number("duration", Self.rounded(entry.duration.secondsValue, places: 3))
                    }
                }
            }
        }
    }

    /// The kinds a trip's `driving` object counts, each always written.
    private static let drivingKeys: [(StaticString, String)] = [
        ("harsh_acceleration", "harsh_acceleration"), ("harsh_braking", "harsh_braking"),
        ("harsh_cornering", "harsh_cornering"), ("overspeed", "overspeed"),
    ]

    /// A place as an object: `name`, `site` (a site's region id), `country`, `admin1`, `timezone`, `geonameid`,
    /// `distance` (metres, to the millimetre), `bearing` (degrees from the place, to 0.1°) and `address` (an
    /// address or street's fields), what is known.
    fileprivate mutating func place(_ key: StaticString, _ place: Place?) {
        guard let place else { return }
        object(key) { writer in
            writer.string("name", place.name)
            if let site = place.site { writer.string("site", site) }
            if let country = place.country { writer.string("country", country) }
            if let admin1 = place.admin1 { writer.string("admin1", admin1) }
            if let timezone = place.timezone { writer.string("timezone", timezone) }
            if let id = place.geonameID { writer.integer("geonameid", Int64(id)) }
            writer.number("distance", Self.rounded(place.distance, places: 3))
            writer.number("bearing", place.bearing.map { Self.rounded($0, places: 1) })
            writer.address("address", place.address)
        }
    }

    fileprivate mutating func location(_ location: Location) {
        number("lat", location.latitude)
        number("lon", location.longitude)
        number("alt_hae", location.altitudeHAE)
        number("alt_msl", location.altitudeMSL)
        number("h_acc", location.horizontalAccuracy)
        number("v_acc", location.verticalAccuracy)
        number("speed", location.speed)
        number("speed_acc", location.speedAccuracy)
        number("course", location.course)
        number("course_acc", location.courseAccuracy)
        integer("mode", Int64(location.mode.rawValue))
    }
}
