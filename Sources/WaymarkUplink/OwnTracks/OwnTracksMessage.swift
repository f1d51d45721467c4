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
        default:
            return nil
        }
    }

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
