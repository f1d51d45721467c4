import Foundation
import Testing
import WaymarkCore

@Suite struct LocateOutcomeTests {
    /// 2026-01-01T00:00:00Z.
    static let start = Timestamp(seconds: 1_767_225_600)

    @Test("a location answers with the keys of a location event, then how the search ended")
    func foundJSON() throws {
        let location = Location(
            time: Self.start,
            latitude: 48.66566,
            longitude: -2.25,
            altitudeHAE: 187.6,
            altitudeMSL: 140.3,
            horizontalAccuracy: 41.8,
            speed: 0.4,
            course: 237.9,
            mode: .threeD
        )
        let found = LocateOutcome.Found(
            location: location,
            stopReason: .forceDone,
            meetsAccuracy: false,
            received: Self.start.advanced(by: .milliseconds(250)),
            age: .milliseconds(10_500)
        )
        let outcome = LocateOutcome(
            result: .found(found),
            time: Self.start.advanced(by: .seconds(11)),
            elapsed: .milliseconds(11_012),
            fixesSeen: 12,
            fixesIgnored: 1
        )
        let line = outcome.jsonLine()
        #expect(
            line == #"{"type":"location","time":"2026-01-01T00:00:00.000Z","recv":"2026-01-01T00:00:00.250Z","#
                + #""lat":48.66566,"lon":-2.25,"alt_hae":187.6,"alt_msl":140.3,"h_acc":41.8,"speed":0.4,"#
                + #""course":237.9,"mode":3,"meets_accuracy":false,"stop_reason":"force_done","age_s":10.5,"#
                + #""elapsed_s":11.012,"fixes_seen":12,"fixes_ignored":1}"#
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["meets_accuracy"] as? Bool == false)
    }

    @Test("a failure answers as an error event at the system time of the end")
    func failedJSON() throws {
        let report = ErrorReport(
            code: .timeout,
            message: "no location within 60 s: the receiver reported nothing; check the receiver and gpsd's device"
        )
        let outcome = LocateOutcome(
            result: .failed(report),
            time: Self.start.advanced(by: .seconds(60)),
            elapsed: .seconds(60)
        )
        #expect(
            outcome.jsonLine()
                == #"{"type":"error","time":"2026-01-01T00:01:00.000Z","code":"timeout","#
                + #""message":"no location within 60 s: the receiver reported nothing; check the receiver and "#
                + #"gpsd's device","elapsed_s":60,"fixes_seen":0,"fixes_ignored":0}"#
        )
        var buffer: [UInt8] = Array("previous line\n".utf8)
        outcome.encode(into: &buffer)
        #expect(buffer.last == UInt8(ascii: "\n"))
        #expect(String(decoding: buffer, as: UTF8.self).hasPrefix("previous line\n{\"type\":\"error\""))
    }

    @Test("one line for a person: what was found and why the search stopped, or the error")
    func description() {
        let location = Location(time: Self.start, latitude: -33.5, longitude: 151.25, horizontalAccuracy: 8)
        let found = LocateOutcome(
            result: .found(.init(location: location, stopReason: .accuracy, meetsAccuracy: true)),
            time: Self.start,
            elapsed: .milliseconds(1_250)
        )
        #expect(
            "\(found)"
                == "-33.500000, 151.250000 ±8.0 m (3D fix of 2026-01-01T00:00:00.000Z): meets the desired accuracy "
                + "after 1.3 s"
        )
        let failed = LocateOutcome(
            result: .failed(ErrorReport(code: .noDevice, message: "gpsd has no receiver")),
            time: Self.start,
            elapsed: .seconds(2)
        )
        #expect("\(failed)" == "no_device: gpsd has no receiver")
    }
}
