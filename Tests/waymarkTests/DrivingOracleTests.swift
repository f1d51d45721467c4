import Foundation
import Testing
import WaymarkTestSupport

/// Issue 43's acceptance on the real captures: `waymark replay` against an independent computation of the same
/// definitions (`Tests/DrivingOracle/driving-oracle.py`, which reads the capture itself and imports nothing of
/// Waymark's): the same events, times within one epoch, peaks within 1 %; the odometer against the geodesic sum of
/// the accepted fixes within 0.5 %; stationary receivers give no event and an odometer that does not move.
@Suite("Driving events against an independent computation")
struct DrivingOracleTests {
    static let oracle = Fixtures.packageRoot.appendingPathComponent("Tests/DrivingOracle/driving-oracle.py").path

    static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func seconds(_ text: Any?) -> Double? {
        guard let text = text as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// What `waymark replay --print` printed, and what the oracle computed from the same capture.
    static func compute(_ capture: String) throws -> (printed: [[String: Any]], oracle: [[String: Any]]) {
        let path = Fixtures.gpsdLog(capture)
        let replay = try WaymarkBinary.run(["replay", path, "--print"], timeout: 120)
        #expect(replay.status == 0, "\(replay.stderr)")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = directory.appendingPathComponent("events.jsonl")
        try replay.stdout.write(to: events, atomically: true, encoding: .utf8)
        let oracle = try WaymarkBinary.run(
            [Self.oracle, path, "--odometer", events.path],
            executable: "/usr/bin/python3"
        )
        #expect(oracle.status == 0, "\(oracle.stderr)")
        return (Self.objects(replay.stdout), Self.objects(oracle.stdout))
    }

    @Test(
        "the same events as the oracle, times within one epoch, peaks within 1 %",
        arguments: [
            // The Regensburg drive (2-s epoch): 6 harsh corners and 2 harsh brakings.
            ("20100411_Geko_Regensburg.log.chk", 2.0, 8),
            // A sailing boat at 2.5-3.4 m/s: under min_speed.
            ("bundg_zeus_9.log.chk", 1.0, 0),
            // u-blox UBX with its own speed accuracy, 10 m/s steady.
            ("synthetic-ubx-nav-pvt.log.chk", 1.0, 0),
            // 10 Hz (an OxTS GPS/IMU), 4 s at 5 m/s.
            ("rst39.log.chk", 0.1, 0),
        ]
    )
    func sameEvents(capture: String, epoch: Double, count: Int) throws {
        let (printed, oracle) = try Self.compute(capture)
        let driving = printed.filter { $0["type"] as? String == "driving" }
        let expected = oracle.filter { $0["kind"] != nil }
        #expect(driving.count == count)
        #expect(driving.count == expected.count, "Waymark \(driving), oracle \(expected)")
        for (event, reference) in zip(driving, expected) {
            #expect(event["kind"] as? String == reference["kind"] as? String)
            let time = try #require(Self.seconds(event["time"]))
            let referenceTime = try #require(Self.seconds(reference["time"]))
            #expect(abs(time - referenceTime) <= epoch, "\(event) against \(reference)")
            let peak = try #require(event["peak"] as? Double)
            let referencePeak = try #require(reference["peak"] as? Double)
            #expect(abs(peak - referencePeak) <= 0.01 * referencePeak, "\(event) against \(reference)")
        }
    }

    @Test(
        "the odometer against the geodesic sum of the accepted fixes, within 0.5 %",
        arguments: ["20100411_Geko_Regensburg.log.chk", "bundg_zeus_9.log.chk", "synthetic-ubx-nav-pvt.log.chk"]
    )
    func odometer(capture: String) throws {
        // The oracle sums the `location` lines: they are the accepted fixes only when the filter held none back
        // for anything but its time (the replay's summary counts every hold).
        let summary = try WaymarkBinary.run(["replay", Fixtures.gpsdLog(capture)], timeout: 120).stderr
        for hold in ["inaccurate", "filtered_distance", "filtered_triggers", "filtered_significant_change", "paused"] {
            #expect(!summary.contains(" \(hold)="), "\(summary.suffix(300))")
        }
        let (printed, oracle) = try Self.compute(capture)
        let odometer = try #require(printed.last { $0["type"] as? String == "trip" }?["odometer_m"] as? Double)
        let geodesic = try #require(oracle.last?["odometer_m"] as? Double)
        #expect(geodesic > 100)
        #expect(abs(odometer - geodesic) <= 0.005 * geodesic, "odometer \(odometer) m, geodesic sum \(geodesic) m")
    }

    @Test(
        "stationary receivers: no driving event, and an odometer that does not move",
        arguments: [
            // No fix at all (a BU-303 that never gets one, a compass): nothing to move the odometer.
            ("bu303-nofix.log.chk", false), ("tnt-revolution.log.chk", false),
            // Real fixes standing still: an Android forwarder (51 fixes, no speed), a u-blox NEO-5Q (23 2D fixes
            // at 0 m/s), a Motorola T805 (15 fixes wandering at 0.4-0.6 m/s), a Garmin 10x (9, at 0.2-1.1 m/s).
            ("gpsdf.log.chk", true), ("firefly-II.log.chk", true), ("motorola-t805.log.chk", true),
            ("garmin-10x.log.chk", true),
        ]
    )
    func stationary(capture: String, hasFixes: Bool) throws {
        let workspace = try DurabilityTests.Workspace()
        let replay = try WaymarkBinary.run(
            ["replay", Fixtures.gpsdLog(capture), "--spool", "--config", workspace.config],
            timeout: 120
        )
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = Self.objects(try workspace.spoolLines().joined(separator: "\n"))
        #expect(!events.isEmpty)
        #expect(events.contains { $0["type"] as? String == "location" } == hasFixes)
        #expect(!events.contains { $0["type"] as? String == "driving" })
        #expect(try #require(try workspace.spoolStats()["odometer_m"] as? Double) == 0)
        let oracle = try WaymarkBinary.run([Self.oracle, Fixtures.gpsdLog(capture)], executable: "/usr/bin/python3")
        #expect(oracle.status == 0 && oracle.stdout.isEmpty, "\(oracle.stdout)\(oracle.stderr)")
    }

    @Test("live through a real gpsd gives the events replay gives: kinds, GPS times, peaks, places")
    func liveAsReplay() throws {
        let drive = "20100411_Geko_Regensburg.log"
        func driving(_ events: [[String: Any]]) -> [String] {
            events.filter { $0["type"] as? String == "driving" }.map { event in
                ["kind", "time", "peak", "duration", "speed", "speed_after", "lat", "lon", "direction"]
                    .map { "\(event[$0] ?? "-")" }.joined(separator: " ")
            }
        }
        let live = driving(try LiveRun.events(drive, "").events)
        let replay = driving(try Self.compute(drive + ".chk").printed)
        #expect(live.count == 8)
        #expect(live == replay)
    }
}
