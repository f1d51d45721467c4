import Foundation
import Testing
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// Beacon regions across a restart of the live agent (BlueZ's stand-in on a real `dbus-daemon`, a real gpsd),
/// and a drive replayed with a Bluetooth capture of tags heard during it.
@Suite(.serialized) struct BeaconRestartTests {
    typealias Workspace = BeaconRegionTests.Workspace
    static let regionIDs = ["fleet", "trailer-7"]

    /// What a person compares of the region events: type, event or state, id, and the beacon.
    static func summary(_ events: [[String: Any]]) -> [String] {
        events.map { event in
            ["type", "event", "state", "id", "major", "minor"].compactMap { key in
                event[key].map { "\(key)=\($0)" }
            }.joined(separator: " ")
        }
    }

    /// The region events of a run: crossings and determinations.
    static func regionEvents(_ stdout: String) -> [[String: Any]] {
        BeaconRegionTests.events(stdout, ["region", "region_state"])
    }

    /// `waymark regions state`: each region's saved state, by id.
    static func savedStates(_ workspace: Workspace) throws -> [String: String] {
        let result = try WaymarkBinary.run(["regions", "state", "--config", workspace.config])
        #expect(result.status == 0, "\(result.stderr)")
        var states: [String: String] = [:]
        for line in result.stdoutLines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { states[String(fields[0])] = String(fields[1]) }
        }
        return states
    }

    /// The agent of `workspace` with a paced drive through a real gpsd (events are dated on GPS time), once it
    /// discovers on the bus's hci0.
    static func startAgent(
        _ workspace: Workspace,
        bus: BlueZTestBus
    ) throws -> (agent: WaymarkBinary.Running, gpsd: GPSDTestServer) {
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(BeaconRegionTests.drive), linesPerSecond: 20)
        let agent = try WaymarkBinary.start([
            "run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)",
        ])
        try agent.wait(seconds: 15, "discovery") {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        return (agent, gpsd)
    }

    /// A first run: the trailer's beacon is heard, both regions enter, and the agent is stopped while they are
    /// inside (within `exit_after` of the enter). Returns the device that advertised.
    static func enterAndStop(_ workspace: Workspace, bus: BlueZTestBus) throws -> String {
        let (agent, gpsd) = try startAgent(workspace, bus: bus)
        defer { gpsd.stop() }
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:07"]) as? String
        )
        for _ in 0..<3 {
            try bus.send(["op": "advertise", "path": path, "rssi": -59, "data": BeaconRegionTests.frame(minor: 42)])
        }
        try agent.wait(seconds: 10, "both regions entered") { regionEvents(agent.stdout).count == 2 }
        let entered = Date()
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(Date().timeIntervalSince(entered) < 2, "stopped within exit_after of the enter")
        #expect(
            summary(regionEvents(agent.stdout)) == [
                "type=region event=enter id=fleet major=7 minor=42",
                "type=region event=enter id=trailer-7 major=7 minor=42",
            ]
        )
        // Stopping the agent stops BlueZ's discovery, so the next run's start is seen.
        #expect((try bus.send(["op": "discovering", "name": "hci0"])) as? Bool == false)
        #expect(try savedStates(workspace) == ["fleet": "inside", "trailer-7": "inside"])
        return path
    }

    @Test func aRegionSavedInsideAndHeardAgainAfterTheRestartIsNotEnteredAgain() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let workspace = try Workspace(bus: bus.address, exitAfter: "2s")
        let path = try Self.enterAndStop(workspace, bus: bus)

        let (agent, gpsd) = try Self.startAgent(workspace, bus: bus)
        defer { gpsd.stop() }
        // The trailer's beacon again, twice a second, until it is ranged (a fresh ranger reports it appeared):
        // the regions had been read by then.
        var lastHeard = Date()
        let deadline = Date().addingTimeInterval(10)
        while !BeaconRegionTests.events(agent.stdout, ["beacon"]).contains(where: {
            $0["event"] as? String == "appeared"
        }) {
            guard Date() < deadline else {
                Issue.record("the beacon was not ranged: \(agent.stdout.suffix(2000)) \(agent.stderr.suffix(2000))")
                return
            }
            try bus.send(["op": "advertise", "path": path, "rssi": -59, "data": BeaconRegionTests.frame(minor: 42)])
            lastHeard = Date()
            usleep(500_000)
        }
        #expect(
            Self.regionEvents(agent.stdout).isEmpty,
            "no second enter: \(Self.summary(Self.regionEvents(agent.stdout)))"
        )

        // Silence: one exit per region after exit_after, with the beacon last heard.
        try agent.wait(seconds: 10, "the exits") { Self.regionEvents(agent.stdout).count >= 2 }
        #expect(Date().timeIntervalSince(lastHeard) >= 1.9, "not before exit_after (2 s)")
        usleep(500_000)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(
            Self.summary(Self.regionEvents(agent.stdout)) == [
                "type=region event=exit id=fleet major=7 minor=42",
                "type=region event=exit id=trailer-7 major=7 minor=42",
            ]
        )
        #expect(try Self.savedStates(workspace) == ["fleet": "outside", "trailer-7": "outside"])
    }

    @Test func aRegionSavedInsideAndSilentAfterTheRestartExitsWithoutABeacon() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let workspace = try Workspace(bus: bus.address, exitAfter: "2s")
        _ = try Self.enterAndStop(workspace, bus: bus)

        let (agent, gpsd) = try Self.startAgent(workspace, bus: bus)
        defer { gpsd.stop() }
        let scanning = Date()
        try agent.wait(seconds: 10, "the exits") { Self.regionEvents(agent.stdout).count >= 2 }
        #expect(Date().timeIntervalSince(scanning) >= 1.5, "after exit_after (2 s) of scanning")
        usleep(500_000)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let events = Self.regionEvents(agent.stdout)
        // Exits, not determinations: the regions were inside when the agent stopped. No beacon was heard since.
        #expect(
            Self.summary(events) == ["type=region event=exit id=fleet", "type=region event=exit id=trailer-7"]
        )
        #expect(events.allSatisfy { $0["uuid"] == nil && $0["time"] is String }, "\(events)")
        #expect(try Self.savedStates(workspace) == ["fleet": "outside", "trailer-7": "outside"])
    }

    // MARK: - A drive replayed with its tags

    /// An event's `time`.
    static func time(_ event: [String: Any]) -> Timestamp? {
        (event["time"] as? String).flatMap { Timestamp(iso8601: $0) }
    }

    @Test func aDriveReplayedWithItsTagsEntersAndExitsOnTheDrivesClock() throws {
        let workspace = try Workspace(bus: nil, exitAfter: "10s")
        let drive = Fixtures.gpsdLog(BeaconRegionTests.drive + ".chk")
        let plain = try WaymarkBinary.run(["replay", drive, "--print", "--config", workspace.config])
        #expect(plain.status == 0, "\(plain.stderr)")
        let plainLocations = BeaconRegionTests.events(plain.stdout, ["location"])
        let first = try #require(plainLocations.first.flatMap(Self.time))
        let last = try #require(plainLocations.last.flatMap(Self.time))
        try #require(last.duration(since: first) > .seconds(120), "the drive lasts minutes: \(first) to \(last)")

        // The tag heard from a minute into the drive, twice a second for 5 s, then not again.
        let heard = first.advanced(by: .seconds(60))
        let lastHeard = heard.advanced(by: .seconds(5))
        var writer = BtsnoopWriter()
        let beacon = BeaconID(uuid: BeaconUUID(BeaconRegionTests.uuid)!, major: 7, minor: 42)
        for step in 0...10 {
            writer.append(
                AdvertisingReport(
                    time: heard.advanced(by: .milliseconds(500 * Int64(step))),
                    address: "C0:FF:EE:00:00:07",
                    rssi: -59,
                    data: AdvertisingData.iBeacon(beacon, measuredPower: -59)
                )
            )
        }
        let capture = workspace.directory.appendingPathComponent("tags.btsnoop").path
        try Data(writer.bytes).write(to: URL(fileURLWithPath: capture))

        let result = try WaymarkBinary.run([
            "replay", drive, "--beacons", capture, "--print", "--config", workspace.config,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = BeaconRegionTests.events(result.stdout, ["location", "region", "region_state"])
        let regions = events.filter { $0["type"] as? String != "location" }
        #expect(
            Self.summary(regions) == [
                "type=region event=enter id=fleet major=7 minor=42",
                "type=region event=enter id=trailer-7 major=7 minor=42",
                "type=region event=exit id=fleet major=7 minor=42",
                "type=region event=exit id=trailer-7 major=7 minor=42",
            ]
        )
        // The tags change nothing of the drive's own events.
        let locations = events.filter { $0["type"] as? String == "location" }
        #expect(
            locations.map { "\($0["time"] ?? "") \($0["lat"] ?? "") \($0["lon"] ?? "")" }
                == plainLocations.map { "\($0["time"] ?? "") \($0["lat"] ?? "") \($0["lon"] ?? "")" }
        )

        let exit = lastHeard.advanced(by: .seconds(10))
        let indices = events.indices.filter { events[$0]["type"] as? String != "location" }
        for (index, expected) in zip(indices, [heard, heard, exit, exit]) {
            let event = events[index]
            let what = "\(event["event"] ?? "?") \(event["id"] ?? "?")"
            guard let time = Self.time(event) else {
                Issue.record("\(what): no time: \(event)")
                continue
            }
            // On the drive's clock: the enter when the tag was first heard, the exit exit_after after it was last.
            #expect(abs(time.duration(since: expected).secondsValue) <= 1, "\(what) at \(time), expected \(expected)")
            // Among the drive's locations: after those of the drive before that moment, before those after it, and
            // in the order of its own time.
            let before = events[..<index].filter { $0["type"] as? String == "location" }
            let after = events[(index + 1)...].filter { $0["type"] as? String == "location" }
            #expect(!before.isEmpty && !after.isEmpty, "\(what) comes during the drive")
            let earlier = after.compactMap(Self.time).filter { $0 < expected }
            #expect(earlier.isEmpty, "\(what) (due \(expected)) is printed before the locations of \(earlier)")
            let later = before.compactMap(Self.time).filter { $0 > expected }
            #expect(later.isEmpty, "\(what) (due \(expected)) is printed after the locations of \(later)")
            #expect(
                before.allSatisfy { Self.time($0).map { $0 <= time } == true },
                "\(what) at \(time): a later location before it"
            )
            #expect(
                after.allSatisfy { Self.time($0).map { $0 >= time } == true },
                "\(what) at \(time): an earlier location after it"
            )
            // Where it happened: the vehicle's position, near the location printed before it.
            guard let lat = event["lat"] as? Double, let lon = event["lon"] as? Double else {
                Issue.record("\(what) has no lat and lon: \(event)")
                continue
            }
            if let previous = before.last, let latitude = previous["lat"] as? Double,
                let longitude = previous["lon"] as? Double
            {
                let distance = Geodesic.distance(
                    from: Coordinate(latitude: lat, longitude: lon),
                    to: Coordinate(latitude: latitude, longitude: longitude)
                )
                #expect(distance < 200, "\(what) at \(lat), \(lon): \(distance) m from the location before it")
            }
        }
        // The counts on stderr name the Bluetooth capture's records.
        let records = result.stderr.firstMatch(of: /bluetooth_records=(\d+)/).map { Int($0.1) }
        #expect(records == 11, "\(result.stderr.suffix(600))")
    }
}
