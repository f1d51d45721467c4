import WaymarkCore
import WaymarkFormats

/// Events as OwnTracks messages (the JSON its apps publish, which its Recorder, Home Assistant and Node-RED read):
/// what one event publishes, to which topic.
///
/// - A `location` is `_type: location` on the device's topic: `lat`, `lon`, `tst` (seconds since 1970), `acc` and
///   `vac` (metres, whole), `alt` (metres above sea level, whole), `vel` (km/h, whole) and `cog` (degrees, whole)
///   when measured, `tid`, `t: "t"` (OwnTracks' trigger for a report made while moving) and `inregions` (the ids
///   of the regions the vehicle is inside, as this sink has seen them).
/// - A `region` crossing is `_type: transition` on `TOPIC/event`: `event` `enter` or `leave`, `desc` the
///   region's id, `wtst` the crossing's time, `t: "c"` (a circular region's trigger; polygons too),
///   with the position.
/// - A `driving` event with an alarm is `_type: location` at its peak's place on the device's topic, with the trigger
///   `t` that Traccar's OwnTracks decoder raises its alarms from: `s` (overspeed) at an overspeed's start; `h` with
///   `rty` 0 (braking), 1 (acceleration) or 2 (cornering) for the harsh kinds; `vel` the speed before it (km/h),
///   and `peak` and `kind` as Waymark has them. The OwnTracks Recorder keeps it as a location, Home Assistant moves
///   the tracker there (its `tst` is the episode's start, a few seconds before the newest location). An
///   overspeed's end is not published.
/// - Every message carries `seq`, which OwnTracks' consumers ignore and a receiver uses to remove duplicates.
/// - Other events are not published: OwnTracks has no message for them.
public enum OwnTracksMessage {
    /// A message to publish: its topic's suffix (empty for the device's topic, `/event` for transitions) and its
    /// JSON payload.
    public struct Publication: Hashable, Sendable {
        public var topicSuffix: String
        public var payload: [UInt8]
    }

    /// The message of `event` (`tid` is the tracker id OwnTracks shows on its map; `inside` the regions the vehicle
    /// is in); nil for an event OwnTracks has no message for, or one without a position.
    public static func publication(for event: EventLine, tid: String, inside: [String]) -> Publication? {
        guard let lat = event.number("lat"), let lon = event.number("lon") else { return nil }
        let seconds = event.time.seconds
        var payload: [UInt8] = []
        switch event.type {
        case "location":
            JSONObjectWriter.write(into: &payload) { object in
                object.string("_type", "location")
                object.number("lat", lat)
                object.number("lon", lon)
                object.integer("tst", seconds)
                whole(&object, "acc", event.number("h_acc"))
                whole(&object, "alt", event.number("alt_msl") ?? event.number("alt_hae"))
                whole(&object, "vac", event.number("v_acc"))
                whole(&object, "vel", event.number("speed").map { $0 * 3.6 })
                whole(&object, "cog", event.number("course"))
                object.string("tid", tid)
                object.string("t", "t")
                object.strings("inregions", inside)
                object.integer("seq", Int64(event.seq))
            }
            payload.removeLast()  // the writer's line break
            return Publication(topicSuffix: "", payload: payload)
        case "region":
            guard let crossing = event.string("event"), let id = event.string("id") else { return nil }
            JSONObjectWriter.write(into: &payload) { object in
                object.string("_type", "transition")
                object.number("lat", lat)
                object.number("lon", lon)
                object.integer("tst", seconds)
                object.integer("wtst", seconds)
                whole(&object, "acc", event.number("h_acc"))
                object.string("tid", tid)
                object.string("event", crossing == "enter" ? "enter" : "leave")
                object.string("desc", id)
                object.string("t", "c")
                object.integer("seq", Int64(event.seq))
            }
            payload.removeLast()
            return Publication(topicSuffix: "/event", payload: payload)
        case "driving":
            guard let kind = event.string("kind"), let trigger = triggers[kind] else { return nil }
            // No `acc`: Home Assistant's tracker ignores a location without one, so an event dated at its episode's
            // start never replaces the current position there (the Recorder orders by `tst` itself).
            JSONObjectWriter.write(into: &payload) { object in
                object.string("_type", "location")
                object.number("lat", lat)
                object.number("lon", lon)
                object.integer("tst", seconds)
                whole(&object, "vel", event.number("speed").map { $0 * 3.6 })
                object.string("tid", tid)
                object.string("t", trigger.t)
                if let rty = trigger.rty { object.integer("rty", rty) }
                object.string("kind", kind)
                object.number("peak", event.number("peak"))
                object.strings("inregions", inside)
                object.integer("seq", Int64(event.seq))
            }
            payload.removeLast()
            return Publication(topicSuffix: "", payload: payload)
        default:
            return nil
        }
    }

    /// The trigger (`t`, and `rty` for `h`) of each kind of `driving` event that is published.
    static let triggers: [String: (t: String, rty: Int64?)] = [
        "harsh_braking": ("h", 0), "harsh_acceleration": ("h", 1), "harsh_cornering": ("h", 2),
        "overspeed_start": ("s", nil),
    ]

    /// The last will the broker publishes when the agent's connection dies without a goodbye: `_type: lwt` with
    /// the time of the connection, on the device's topic, as OwnTracks' apps set it.
    public static func lastWill(connectedAt seconds: Int64) -> [UInt8] {
        var payload: [UInt8] = []
        JSONObjectWriter.write(into: &payload) { object in
            object.string("_type", "lwt")
            object.integer("tst", seconds)
        }
        payload.removeLast()
        return payload
    }

    /// `value` rounded to a whole number, when it is known: OwnTracks' apps send integers.
    private static func whole(_ object: inout JSONObjectWriter, _ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite, abs(value) < 1e15 else { return }
        object.integer(key, Int64(value.rounded()))
    }
}
