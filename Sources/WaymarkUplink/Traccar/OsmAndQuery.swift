import WaymarkCore
import WaymarkFormats

/// Events as Traccar's OsmAnd protocol takes them: the query parameters its `OsmAndProtocolDecoder` reads, one
/// request per position.
///
/// - A `location` is a position: `id`, `timestamp` (milliseconds since 1970: the decoder reads a number past
///   2^31 as milliseconds), `lat`, `lon`, `speed` in knots (the decoder's default unit), `bearing`, `altitude`
///   (above sea level, as most of Traccar's device protocols report it; above the ellipsoid when that is all
///   there is), `accuracy`.
/// - A `pause`, `resume`, `region` or `trip` is a position at its own place, with what Traccar keeps of it as
///   attributes (the decoder stores every parameter it does not know under its own name): `motion` (false on a
///   pause, true on a resume: Traccar's own key for it), `alarm` = `geofenceEnter` or `geofenceExit` and
///   `geofence` = the region's id on a crossing (Traccar's alarm values for a device that watches its own
///   geofences, which raise its alarm events and notifications), and an `event` name with the event's figures
///   (a resume's `resumeDistance`: Traccar reads a device's `distance` as the way since its last position).
/// - A `driving` event is a position where its peak was, with `alarm` = `hardAcceleration`, `hardBraking`,
///   `hardCornering` or, at an overspeed's start, `overspeed` (Traccar's alarm values, which raise its alarm events
///   and notifications), `speed` (knots: the event's `speed`), `event` = `driving`, `kind`, `peak` (m/s², or knots for an overspeed), `drivingDuration`
///   (seconds) and `speedLimit` (knots). An overspeed's end raises no alarm. A trip carries `odometer` (metres:
///   Traccar's own key for a vehicle's odometer).
/// - Every request carries `seq`, kept as an attribute, so that the positions a retry sent twice can be told
///   apart on the server.
/// - Other events (`heading`, `status`, `error`, ...) are not sent: Traccar has no place for them.
public enum OsmAndQuery {
    /// The query string (without `?`) for `event` of device `deviceID`; nil for an event Traccar keeps nothing
    /// of, or one without a position.
    public static func query(for event: EventLine, deviceID: String) -> String? {
        guard let lat = event.number("lat"), let lon = event.number("lon") else { return nil }
        var parameters: [(String, String)] = [
            ("id", deviceID), ("timestamp", String(milliseconds(event.time))), ("lat", number(lat)),
            ("lon", number(lon)),
        ]
        func add(_ name: String, _ value: Double?) {
            if let value, value.isFinite { parameters.append((name, number(value))) }
        }
        switch event.type {
        case "location":
            add("speed", event.number("speed").map(knots))
            add("bearing", event.number("course"))
            add("altitude", event.number("alt_msl") ?? event.number("alt_hae"))
            add("accuracy", event.number("h_acc"))
        case "pause", "resume":
            parameters.append(("motion", event.type == "resume" ? "true" : "false"))
            parameters.append(("event", event.type))
            if let reason = event.string("reason") { parameters.append(("reason", reason)) }
            // Not `distance`: Traccar takes a device's `distance` as the way since its last position, for the odometer.
            add("resumeDistance", event.number("distance"))
        case "region":
            guard let crossing = event.string("event"), let id = event.string("id") else { return nil }
            parameters.append(("alarm", crossing == "enter" ? "geofenceEnter" : "geofenceExit"))
            parameters.append(("geofence", id))
            parameters.append(("event", "region"))
        case "driving":
            guard let kind = event.string("kind") else { return nil }
            // Traccar stores a position's speed as 0 when none is sent: the speed the event reports is the one.
            add("speed", event.number("speed").map(knots))
            if let alarm = alarms[kind] { parameters.append(("alarm", alarm)) }
            parameters.append(("event", "driving"))
            parameters.append(("kind", kind))
            let overspeed = kind.hasPrefix("overspeed")
            add("peak", event.number("peak").map { overspeed ? knots($0) : $0 })
            add("drivingDuration", event.number("duration"))
            add("speedLimit", event.number("limit").map(knots))
        case "trip":
            parameters.append(("event", "trip"))
            add("odometer", event.number("odometer_m"))
            add("tripDistance", event.number("distance"))
            add("tripDuration", event.number("duration"))
            add(
                "tripMaxSpeed",
                event.number("max_speed").map(knots)
            )
        default:
            return nil
        }
        parameters.append(("seq", String(event.seq)))
        return parameters.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// Traccar's alarm for each kind of `driving` event that raises one.
    static let alarms = [
        "harsh_acceleration": "hardAcceleration", "harsh_braking": "hardBraking", "harsh_cornering": "hardCornering",
        "overspeed_start": "overspeed",
    ]

    /// Metres per second in knots, to the thousandth.
    private static func knots(_ speed: Double) -> Double {
        JSONObjectWriter.rounded(speed * knotsPerMetrePerSecond, places: 3)
    }

    /// Whole milliseconds since 1970, truncated.
    private static func milliseconds(_ time: Timestamp) -> Int64 {
        time.seconds * 1000 + Int64(time.nanoseconds / 1_000_000)
    }

    /// Knots in a metre per second: a knot is 1852 m an hour.
    static let knotsPerMetrePerSecond = 3600.0 / 1852.0

    /// The shortest text that reads back as `value`.
    private static func number(_ value: Double) -> String { JSONText.number(value) }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded, as a query value.
    static func percentEncoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
