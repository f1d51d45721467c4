import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Issue 4's acceptance: `heading` events from real captures through a real gpsd and `waymark run`.
@Suite("Headings through a real gpsd")
struct HeadingDeliveryTests {
    static func headings(
        _ log: String,
        _ settings: String = ""
    ) throws -> (all: [[String: Any]], headings: [[String: Any]]) {
        let (events, _) = try LiveRun.events(log, "[heading]\nenabled = true\n\(settings)")
        return (events, events.filter { $0["type"] as? String == "heading" })
    }

    /// The declination at a fix, computed here from the model directly (not through the cache).
    static func declination(at location: [String: Any]) throws -> Double {
        let coordinate = Coordinate(
            latitude: try #require(location["lat"] as? Double),
            longitude: try #require(location["lon"] as? Double)
        )
        let text = try #require(location["time"] as? String)
        let time = try #require(Timestamp(iso8601: text))
        let field = try #require(
            MagneticModel.wmm2025.field(at: coordinate, altitudeHAE: location["alt_hae"] as? Double ?? 0, time: time)
        )
        return field.declination
    }

    @Test("rst39: the 4 ATT headings, magnetic = true - declination at the receiver's position")
    func rst39() throws {
        let (events, headings) = try Self.headings("rst39.log")
        let attitude = headings.filter { $0["source"] as? String == "attitude" && $0["accuracy"] as? Double != -1 }
        // When the log ends, gpsd reports the receiver gone: the last heading is marked invalid.
        #expect(headings.last?["accuracy"] as? Double == -1)
        #expect(attitude.compactMap { $0["true"] as? Double } == [25.5, 43.31, 61.49, 74.79])
        for heading in attitude {
            let seq = try #require(heading["seq"] as? Int)
            let fix = try #require(
                events.last { $0["type"] as? String == "location" && ($0["seq"] as? Int ?? 0) < seq }
            )
            let declination = try Self.declination(at: fix)
            let trueHeading = try #require(heading["true"] as? Double)
            let magnetic = try #require(heading["magnetic"] as? Double)
            #expect(abs(magnetic - (trueHeading - declination)) < 0.05, "the cached declination is within 0.05°")
            #expect(abs((heading["declination"] as? Double ?? .nan) - declination) < 0.05)
            // gpsd's ATT carries no accuracy of its own, and the capture's date (2033) is outside WMM2025's
            // validity: the accuracy is unknown, so absent.
            #expect(heading["accuracy"] == nil)
        }
    }

    @Test("hemi: headings only for its 4 non-empty HDT sentences")
    func hemi() throws {
        let (_, headings) = try Self.headings("hemi.log", "filter = 0")
        let attitude = headings.filter { $0["source"] as? String == "attitude" && $0["accuracy"] as? Double != -1 }
        #expect(attitude.compactMap { $0["true"] as? Double } == [274.07, 274.04, 274.12, 274.11])
    }

    @Test("tnt-revolution: raw compass units give no heading and one heading_failure")
    func tntRevolution() throws {
        let (events, headings) = try Self.headings("tnt-revolution.log")
        #expect(headings.isEmpty)
        let failures = events.filter { $0["code"] as? String == "heading_failure" }
        #expect(failures.count == 1)
    }

    @Test("the Regensburg drive: course headings only while moving above min_speed")
    func regensburg() throws {
        let (events, headings) = try Self.headings("20100411_Geko_Regensburg.log")
        let valid = headings.filter { ($0["accuracy"] as? Double ?? -1) >= 0 }
        try #require(valid.count > 100)
        var speeds: [String: Double] = [:]
        for event in events where event["type"] as? String == "location" {
            if let time = event["time"] as? String { speeds[time] = event["speed"] as? Double }
        }
        for heading in valid {
            #expect(heading["source"] as? String == "course")
            let time = try #require(heading["time"] as? String)
            let speed = try #require(speeds[time], "a heading at \(time) without a fix")
            #expect(speed >= 2, "a course heading at \(speed) m/s")
        }
        // And every stretch above 2 m/s gives headings: most moving fixes have one (the filter of 1° holds
        // back the straight ones).
        let moving = speeds.values.filter { $0 >= 2 }.count
        #expect(valid.count > moving / 3)
    }
}
