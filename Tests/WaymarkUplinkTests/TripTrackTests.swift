import Testing
import WaymarkCore
import WaymarkStore

@testable import WaymarkUplink

/// A trip's GPX waypoints from the driving events the spool kept, read back as lines.
@Suite struct TripTrackTests {
    static let time = Timestamp(seconds: 1_890_320_264)

    static func waypoint(_ fields: String) throws -> String? {
        let line = #"{"type":"driving","seq":7,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12,\#(fields)}"#
        let event = StoredEvent(seq: 7, kind: .driving, time: time, line: Array(line.utf8))
        return try TripTrack.waypoints(of: [event], through: time).first?.description
    }

    @Test("an overspeed's figures in km/h; a corrupt speed is left out, never a crash")
    func figures() throws {
        #expect(
            try Self.waypoint(#""kind":"overspeed_start","peak":18,"duration":5,"limit":16.67"#)
                == "peak 65 km/h, limit 60 km/h, 5.0 s"
        )
        // Numbers no Int holds (a damaged spool, a foreign writer): the rest of the waypoint stays.
        #expect(
            try Self.waypoint(#""kind":"overspeed_end","peak":1e300,"duration":8,"limit":-1e300"#) == "8.0 s"
        )
    }
}
