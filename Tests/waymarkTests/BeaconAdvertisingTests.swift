import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Issue 41: `waymark run` advertising the board as an iBeacon through a real `dbus-daemon` with python3-dbusmock's
/// BlueZ stand-in given BlueZ's `LEAdvertisingManager1` (`Tests/Fixtures/bluez/advertising-manager.py`): started
/// and stopped with the activity and with a region, stopped at a clean exit, a refusal said with an alarm.
@Suite("Beacons: the board as an iBeacon", .serialized)
struct BeaconAdvertisingTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let depotUUID = "B9407F30-F5F8-466E-AFF9-25556B57FE6D"

    typealias Workspace = BeaconRegionTests.Workspace

    /// A configuration that advertises `when` on `bus`, pausing after 5 s standing still (`probing`: with the GNSS
    /// watch dropped while paused, as by default); `scanning` also monitors the beacon region "depot" (its gate's
    /// beacon, major 1).
    static func workspace(
        bus: String,
        when: String,
        scanning: Bool = false,
        metrics: String? = nil,
        probing: Bool = true
    ) throws -> Workspace {
        try Workspace(
            bus: bus,
            exitAfter: "5s",
            features: """
                {"type": "Feature", "geometry": null,
                 "properties": {"id": "depot", "beacon": {"uuid": "\(depotUUID)", "major": 1}}}
                """,
            scanning: scanning,
            extra: """
                [activity]
                pause_after = "5s"
                power_save = \(probing)
                \(metrics.map { "\n[metrics]\ntextfile = \"\($0)\"\ninterval = \"1s\"\n" } ?? "")

                [beacons.advertise]
                enabled = true
                uuid = "\(uuid)"
                major = 12
                minor = 3407
                measured_power = -61
                when = "\(when)"
                regions = ["depot"]
                """
        )
    }

    static func bus(instances: Int = 4) throws -> BlueZTestBus {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        try bus.send(["op": "advertising", "name": "hci0", "max": instances])
        return bus
    }

    /// The `beacon_advertising` events as "started|stopped REASON[ ID]", and the codes of the beacon source's
    /// errors, in order.
    static func advertising(_ stdout: String) -> [String] {
        BeaconRegionTests.events(stdout, ["beacon_advertising", "error"]).compactMap { event in
            if let code = event["code"] as? String {
                return code.hasPrefix("bluetooth_") || code.hasPrefix("beacon_") ? "error \(code)" : nil
            }
            let id = (event["id"] as? String).map { " \($0)" } ?? ""
            return "\(event["event"] ?? "?") \(event["reason"] ?? "?")\(id)"
        }
    }

    /// Waits for `what`, with the agent's output in the error.
    static func wait(
        _ agent: WaymarkBinary.Running,
        _ what: String,
        seconds: Double = 15,
        until condition: () -> Bool
    ) throws {
        do {
            try agent.wait(seconds: seconds, what, until: condition)
        } catch {
            let events = BeaconRegionTests.events(agent.stdout, ["beacon_advertising", "region", "error", "pause"])
            throw TestServerError("\(error): \(events) \(agent.stderr.suffix(1500))")
        }
    }

    /// A parked receiver (motorola-t805: 25 s of fixes standing still), paced: events are dated on GPS time, and
    /// the agent pauses (stationary) after `pause_after`, 5 s of it.
    static func gpsd() throws -> GPSDTestServer {
        try GPSDTestServer(log: Fixtures.gpsdLog("motorola-t805.log"), linesPerSecond: 10)
    }

    static func start(_ workspace: Workspace, gpsd: GPSDTestServer) throws -> WaymarkBinary.Running {
        try WaymarkBinary.start(["run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)"])
    }

    @Test func advertisesWhileMovingStopsWhenPausedAndAdvertisesWhilePausedUntilTheExit() throws {
        let bus = try Self.bus()
        let gpsd = try Self.gpsd()
        // Moving at the start; standing still for pause_after pauses the agent.
        let moving = try Self.workspace(bus: bus.address, when: "moving")
        let agent = try Self.start(moving, gpsd: gpsd)
        try Self.wait(agent, "a start and a stop", seconds: 15) { Self.advertising(agent.stdout).count >= 2 }
        #expect(Self.advertising(agent.stdout) == ["started moving", "stopped paused"], "\(agent.stderr)")
        #expect(try bus.send(["op": "instances", "name": "hci0"]) as? [Int] == [0, 4])
        let event = try #require(BeaconRegionTests.events(agent.stdout, ["beacon_advertising"]).first)
        #expect(event["uuid"] as? String == Self.uuid && event["major"] as? Int == 12 && event["minor"] as? Int == 3407)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(Self.advertising(agent.stdout) == ["started moving", "stopped paused"])

        // The other rule: silent while moving, advertising once paused, until the clean exit unregisters.
        let paused = try Self.workspace(bus: bus.address, when: "paused")
        let secondGPSD = try Self.gpsd()
        let second = try Self.start(paused, gpsd: secondGPSD)
        try Self.wait(second, "a start", seconds: 15) { Self.advertising(second.stdout) == ["started paused"] }
        #expect(try bus.send(["op": "instances", "name": "hci0"]) as? [Int] == [1, 3])
        let table = try WaymarkBinary.run(["status", "--config", paused.config])
        #expect(table.stdout.contains("\nadvertising "), "\(table.stdout)")
        #expect(table.stdout.contains("as \(Self.uuid):12:3407 (wanted: paused)"), "\(table.stdout)")
        // What BlueZ read is exactly iBeacon's frame for the configured values, and Waymark's parser reads it back.
        let records = try #require(try bus.send(["op": "advertisements", "name": "hci0"]) as? [[String: Any]])
        let hex = try #require((records.last?["ManufacturerData"] as? [String: String])?["76"])
        #expect(hex == "0215E2C56DB5DFFB48D2B060D0F5A71096E0000C0D4FC3")
        #expect(second.interrupt() == 0, "\(second.stderr)")
        #expect(Self.advertising(second.stdout) == ["started paused", "stopped stopping"])
        #expect(try bus.send(["op": "instances", "name": "hci0"]) as? [Int] == [0, 4])
    }

    /// The Regensburg drive (a car standing at its start, then driving), paced: the agent pauses in the first
    /// seconds and resumes when the car drives off.
    static func drive() throws -> GPSDTestServer {
        try GPSDTestServer(log: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"), linesPerSecond: 10)
    }

    /// Review of issue 41, finding 15: under `moving`, a pause stops advertising and the drive that follows starts
    /// it again.
    @Test func advertisesAgainWhenTheVehicleDrivesOffAfterAPause() throws {
        let bus = try Self.bus()
        let gpsd = try Self.drive()
        let workspace = try Self.workspace(bus: bus.address, when: "moving", probing: false)
        let agent = try Self.start(workspace, gpsd: gpsd)
        try Self.wait(agent, "a start, a stop and a start", seconds: 30) { Self.advertising(agent.stdout).count >= 3 }
        #expect(
            Array(Self.advertising(agent.stdout).prefix(3)) == ["started moving", "stopped paused", "started moving"]
        )
        let activity = BeaconRegionTests.events(agent.stdout, ["pause", "resume"]).compactMap { $0["type"] as? String }
        #expect(activity.prefix(2) == ["pause", "resume"])
        #expect(try bus.send(["op": "instances", "name": "hci0"]) as? [Int] == [1, 3])
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }

    /// Findings 1 and 15: a refusal under `moving` is an error and an alarm at every drive, not only the first;
    /// the pause between ends the alarm.
    @Test func aRefusalIsSaidWithItsAlarmAgainAtTheNextDrive() throws {
        let bus = try Self.bus(instances: 0)
        let gpsd = try Self.drive()
        let workspace = try Self.workspace(bus: bus.address, when: "moving", probing: false)
        let agent = try Self.start(workspace, gpsd: gpsd)
        try Self.wait(agent, "two refusals with their alarms", seconds: 30) {
            Self.advertising(agent.stdout).count >= 4
        }
        let refusal = ["error bluetooth_advertising_refused", "error beacon_source_failed"]
        #expect(Array(Self.advertising(agent.stdout).prefix(4)) == refusal + refusal)
        let seq = { (type: String) in
            BeaconRegionTests.events(agent.stdout, [type]).compactMap { $0["seq"] as? Int }
        }
        let alarms = BeaconRegionTests.events(agent.stdout, ["error"]).filter {
            $0["code"] as? String == "beacon_source_failed"
        }.compactMap { $0["seq"] as? Int }
        let cleared = try #require(seq("alarm_cleared").first)
        let resumed = try #require(seq("resume").first)
        #expect(alarms.count >= 2 && alarms[0] < cleared && cleared < resumed && resumed < alarms[1])
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }

    @Test func advertisesInsideARegionThatItsOwnScanningEnters() throws {
        let bus = try Self.bus()
        let gpsd = try Self.gpsd()
        let metrics = bus.directory.appendingPathComponent("waymark.prom").path
        let workspace = try Self.workspace(bus: bus.address, when: "regions", scanning: true, metrics: metrics)
        let agent = try Self.start(workspace, gpsd: gpsd)
        try Self.wait(agent, "discovery", seconds: 15) {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        #expect(Self.advertising(agent.stdout).isEmpty)
        // The depot's gate beacon is heard: the region is entered, and the board advertises; 5 s of silence
        // (exit_after) exits it.
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:01"]) as? String
        )
        let frame = BlueZTestBus.iBeaconData(uuid: Self.depotUUID, major: 1, minor: 5)
        try bus.send(["op": "advertise", "path": path, "rssi": -60, "data": "1005031C"])  // Apple, no iBeacon
        try bus.send(["op": "advertise", "path": path, "rssi": -60, "data": frame])
        try Self.wait(agent, "a start", seconds: 10) { !Self.advertising(agent.stdout).isEmpty }
        #expect(Self.advertising(agent.stdout) == ["started inside_region depot"])
        #expect(try bus.send(["op": "instances", "name": "hci0"]) as? [Int] == [1, 3])
        // The beacon source's counters in the metrics and in waymark status (issue 41: not only in the stop line).
        try Self.wait(agent, "the metrics", seconds: 5) {
            ((try? String(contentsOfFile: metrics, encoding: .utf8)) ?? "").contains("waymark_beacon_advertising 1\n")
        }
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        for line in [
            "waymark_beacon_sightings_total 1", #"waymark_beacon_rejected_total{reason="not_ibeacon"} 1"#,
            "waymark_beacon_scanning 1", "waymark_beacon_source_failures_total 0",
            "waymark_beacon_advertising_starts_total 1", "waymark_beacon_advertising_failures_total 0",
        ] {
            #expect(text.contains(line + "\n"), "\(line) in \(text)")
        }
        let status = try WaymarkBinary.run(["status", "--config", workspace.config])
        #expect(status.stdout.contains("scanning; 1 heard, 1 rejected"), "\(status.stdout)")
        #expect(status.stdout.contains("(wanted: inside_region depot)"), "\(status.stdout)")
        try Self.wait(agent, "a stop", seconds: 15) { Self.advertising(agent.stdout).count == 2 }
        #expect(Self.advertising(agent.stdout) == ["started inside_region depot", "stopped outside_regions"])
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }

    @Test func aRefusalIsAnErrorAndAnAlarmAndNeverACrash() throws {
        // No advertising instance free (another application holds the only one: NotPermitted).
        let bus = try Self.bus(instances: 0)
        let gpsd = try Self.gpsd()
        let workspace = try Self.workspace(bus: bus.address, when: "always")
        let agent = try Self.start(workspace, gpsd: gpsd)
        try Self.wait(agent, "the refusal and its alarm", seconds: 15) { Self.advertising(agent.stdout).count >= 2 }
        #expect(
            Self.advertising(agent.stdout) == ["error bluetooth_advertising_refused", "error beacon_source_failed"]
        )
        let refusal = try #require(
            BeaconRegionTests.events(agent.stdout, ["error"]).first {
                $0["code"] as? String == "bluetooth_advertising_refused"
            }
        )
        #expect((refusal["message"] as? String)?.contains("org.bluez.Error.NotPermitted") == true)
        let status = try WaymarkBinary.run(["status", "--config", workspace.config])
        #expect(status.stdout.contains("beacon_source_failed"), "\(status.stdout)")
        #expect(status.stdout.contains("\nadvertising   off (wanted: always); "), "\(status.stdout)")
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }

    /// Finding 13: a beacon region listed while nothing scans is said at the start, in the journal.
    @Test func aBeaconRegionThatNothingScansForIsSaid() throws {
        let bus = try Self.bus()
        let gpsd = try Self.gpsd()
        let workspace = try Self.workspace(bus: bus.address, when: "regions", scanning: false)
        let agent = try Self.start(workspace, gpsd: gpsd)
        let warning = #"[beacons.advertise] regions: "depot" is a beacon region and [beacons] enabled = false"#
        try Self.wait(agent, "the warning", seconds: 10) { agent.stderr.contains(warning) }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(Self.advertising(agent.stdout).isEmpty)
    }

    @Test func theAlarmEndsWhenAdvertisingIsNoLongerWanted() throws {
        let bus = try Self.bus(instances: 0)
        let gpsd = try Self.gpsd()
        // Refused while moving; once paused, nothing is tried any more, and the alarm ends.
        let workspace = try Self.workspace(bus: bus.address, when: "moving")
        let agent = try Self.start(workspace, gpsd: gpsd)
        try Self.wait(agent, "the alarm's end", seconds: 20) {
            !BeaconRegionTests.events(agent.stdout, ["alarm_cleared"]).isEmpty
        }
        #expect(
            Self.advertising(agent.stdout) == ["error bluetooth_advertising_refused", "error beacon_source_failed"]
        )
        let cleared = try #require(BeaconRegionTests.events(agent.stdout, ["alarm_cleared"]).first)
        #expect(cleared["code"] as? String == "beacon_source_failed" && cleared["id"] as? String == "advertising")
        let pause = try #require(BeaconRegionTests.events(agent.stdout, ["pause"]).first)
        #expect((pause["seq"] as? Int ?? 0) < (cleared["seq"] as? Int ?? 0))
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }
}
