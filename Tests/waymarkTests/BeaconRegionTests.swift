import Foundation
import Testing
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// Issue 19's beacon regions with the real parts: `waymark run` scanning through a real `dbus-daemon` with
/// python3-dbusmock's BlueZ stand-in, while a real gpsd runs; and `waymark replay` of a btsnoop capture of the
/// same advertisements.
@Suite("Beacons: regions and ranging through BlueZ", .serialized)
struct BeaconRegionTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let otherUUID = "B9407F30-F5F8-466E-AFF9-25556B57FE6D"
    static let drive = "20100411_Geko_Regensburg.log"

    /// The region file's features: a ranged trailer's beacon and the fleet's UUID.
    static let features = """
        {"type": "Feature", "geometry": null,
         "properties": {"id": "trailer-7", "beacon": {"uuid": "\(uuid)", "major": 7}, "ranging": true}},
        {"type": "Feature", "geometry": null,
         "properties": {"id": "fleet", "beacon": {"uuid": "\(uuid)"}}}
        """

    /// A region file of `features`, and a configuration scanning on `bus` (or not, without `scanning`), with the
    /// sections of `extra` added.
    final class Workspace {
        let directory: URL
        let config: String

        init(
            bus: String?,
            exitAfter: String = "2s",
            features: String = BeaconRegionTests.features,
            scanning: Bool = true,
            extra: String = ""
        ) throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            let regions = directory.appendingPathComponent("regions.geojson").path
            try """
            {"type": "FeatureCollection", "features": [
            \(features)
            ]}
            """.write(toFile: regions, atomically: true, encoding: .utf8)
            try """
            \(Fixtures.isolatedSections(in: directory))
            [deferred]
            enabled = false

            [regions]
            file = "\(regions)"

            [beacons]
            enabled = \(scanning)
            \(bus.map { "bus = \"\($0)\"" } ?? "")
            exit_after = "\(exitAfter)"
            ranging_interval = "1h"

            \(extra)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    /// The events of `types` a run printed, as JSON objects.
    static func events(_ stdout: String, _ types: Set<String>) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = event["type"] as? String, types.contains(type)
            else { return nil }
            return event
        }
    }

    /// What a person compares of the beacon and region events: type, event, id, beacon and proximity.
    static func summary(_ events: [[String: Any]]) -> [String] {
        events.map { event in
            ["type", "event", "id", "major", "minor", "proximity", "code"].compactMap { key in
                event[key].map { "\(key)=\($0)" }
            }.joined(separator: " ")
        }
    }

    static func frame(minor: Int, major: Int = 7, uuid: String = uuid) -> String {
        BlueZTestBus.iBeaconData(uuid: uuid, major: major, minor: minor, measuredPower: -59)
    }

    @Test func entersRangesExitsAndRecoversWithTheLiveAgent() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        // A drive through a real gpsd, paced: events are dated on GPS time, and tracking goes on beside the beacons.
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 20)
        let workspace = try Workspace(bus: bus.address)
        let agent = try WaymarkBinary.start([
            "run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)",
        ])
        try agent.wait(seconds: 15, "discovery") {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:07"]) as? String
        )
        // A metre away (RSSI = measured power): near.
        for _ in 0..<3 { try bus.send(["op": "advertise", "path": path, "rssi": -59, "data": Self.frame(minor: 42)]) }
        do {
            try agent.wait(seconds: 10, "both regions entered") { Self.events(agent.stdout, ["region"]).count == 2 }
        } catch {
            Issue.record("\(error): \(agent.stdout.suffix(2000)) \(agent.stderr.suffix(2000))")
            throw error
        }
        // 20 cm away, twice a second for 3 s: immediate, once the window's median turns.
        for _ in 0..<6 {
            usleep(500_000)
            try bus.send(["op": "advertise", "path": path, "rssi": -45, "data": Self.frame(minor: 42)])
        }
        try agent.wait(seconds: 10, "immediate") {
            Self.events(agent.stdout, ["beacon"]).contains { $0["proximity"] as? String == "immediate" }
        }
        // Silence: both regions exit after exit_after, and the ranged beacon is lost.
        try agent.wait(seconds: 15, "the exits") { Self.events(agent.stdout, ["region"]).count == 4 }
        try agent.wait(seconds: 5, "the loss") {
            Self.events(agent.stdout, ["beacon"]).contains { $0["event"] as? String == "lost" }
        }
        #expect(
            Self.summary(Self.events(agent.stdout, ["region", "beacon"])) == [
                "type=region event=enter id=fleet major=7 minor=42",
                "type=region event=enter id=trailer-7 major=7 minor=42",
                "type=beacon event=appeared id=trailer-7 major=7 minor=42 proximity=near",
                "type=beacon event=proximity id=trailer-7 major=7 minor=42 proximity=immediate",
                "type=region event=exit id=fleet major=7 minor=42",
                "type=region event=exit id=trailer-7 major=7 minor=42",
                "type=beacon event=lost id=trailer-7 major=7 minor=42 proximity=unknown",
            ]
        )
        let enter = try #require(Self.events(agent.stdout, ["region"]).first)
        #expect(enter["uuid"] as? String == Self.uuid)

        // bluetoothd goes away and comes back: said once, and the regions work again.
        bus.stopBlueZ()
        try agent.wait(seconds: 10, "bluetooth_unavailable") {
            Self.events(agent.stdout, ["error"]).contains { $0["code"] as? String == "bluetooth_unavailable" }
        }
        try bus.startBlueZ()
        try bus.send(["op": "adapter", "name": "hci0"])
        try agent.wait(seconds: 15, "discovery again") {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        let again = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:07"]) as? String
        )
        try bus.send(["op": "advertise", "path": again, "rssi": -59, "data": Self.frame(minor: 42)])
        try agent.wait(seconds: 10, "the regions entered again") { Self.events(agent.stdout, ["region"]).count == 6 }
        // Tracking went on throughout, and the agent stops cleanly.
        #expect(!Self.events(agent.stdout, ["location"]).isEmpty)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(
            Self.events(agent.stdout, ["error"]).filter { $0["code"] as? String == "bluetooth_unavailable" }.count == 1
        )
    }

    @Test func garbageFromTheAirIsCountedAndAFloodGivesNoFloodOfEvents() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 20)
        let workspace = try Workspace(bus: bus.address, exitAfter: "30s")
        let agent = try WaymarkBinary.start([
            "run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)",
        ])
        try agent.wait(seconds: 15, "discovery") {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:09"]) as? String
        )
        let frame = Self.frame(minor: 1)
        for data in [
            "1005031C", String(frame.dropLast(4)), frame + "00", String(frame.dropLast(2)) + "00",
            String(frame.dropLast(2)) + "7F", "",
        ] {
            try bus.send(["op": "advertise", "path": path, "rssi": -60, "data": data])
        }
        try bus.send(["op": "advertise", "path": path, "rssi": 127, "data": frame])
        // One beacon advertising 1,000 times a second for 3 s (the flood's minors are 1…count).
        let sent = try #require(
            try bus.send(["op": "flood", "name": "hci0", "count": 1, "rate": 1000, "seconds": 3]) as? Int
        )
        #expect(sent == 3000)
        try agent.wait(seconds: 10, "the flood's region entries") { Self.events(agent.stdout, ["region"]).count == 2 }
        usleep(500_000)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        // Entered once each, appeared once: 3,000 advertisements, a handful of events.
        let beaconEvents = Self.events(agent.stdout, ["region", "beacon"])
        #expect(beaconEvents.count == 3, "\(Self.summary(beaconEvents))")
        // The counters the agent logs when it stops.
        let stderr = agent.stderr
        // Each count whole: `=2` followed by a space or the end of the line, not `=20`.
        let counted = Dictionary(
            stderr.matches(of: /(beacon_rejected_[a-z_]+)=(\d+)/).map { (String($0.1), Int($0.2)!) },
            uniquingKeysWith: { $1 }
        )
        #expect(
            counted == [
                "beacon_rejected_not_ibeacon": 2, "beacon_rejected_bad_length": 2,
                "beacon_rejected_bad_measured_power": 2, "beacon_rejected_bad_rssi": 1,
            ],
            "\(stderr.suffix(600))"
        )
        let sightings = stderr.firstMatch(of: /beacon_sightings=(\d+)/).map { Int($0.1)! } ?? 0
        #expect(sightings >= 2990 && sightings <= 3000, "beacon_sightings=\(sightings)")
    }

    /// The same advertisements, live through D-Bus and replayed from a btsnoop capture the test writes
    /// (synthetic: LE Advertising Report events of the layout BlueZ's btmon records), give the same events.
    @Test func replayOfABtsnoopCaptureEqualsTheLiveRun() throws {
        // (seconds from the start, UUID, minor, RSSI): near, then immediate (the window's median turns once most
        // of its sightings are close), then silence past exit_after, then a
        // beacon of another fleet, which matches no region and only moves the capture's clock on.
        var script: [(at: Double, uuid: String, minor: Int, rssi: Int)] = []
        for step in 0..<4 { script.append((0.5 * Double(step), Self.uuid, 42, -59)) }
        for step in 0..<6 { script.append((2.0 + 0.5 * Double(step), Self.uuid, 42, -45)) }
        script.append((8.0, Self.otherUUID, 1, -70))

        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive), linesPerSecond: 20)
        let live = try Workspace(bus: bus.address)
        let agent = try WaymarkBinary.start([
            "run", "--print", "--config", live.config, "--gpsd", "127.0.0.1:\(gpsd.port)",
        ])
        try agent.wait(seconds: 15, "discovery") {
            (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true
        }
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:07"]) as? String
        )
        let start = Date()
        for (at, uuid, minor, rssi) in script {
            let wait = at - Date().timeIntervalSince(start)
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            let major = uuid == Self.uuid ? 7 : 1
            try bus.send([
                "op": "advertise", "path": path, "rssi": rssi,
                "data": Self.frame(minor: minor, major: major, uuid: uuid),
            ])
        }
        usleep(500_000)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let liveEvents = Self.summary(Self.events(agent.stdout, ["region", "beacon"]))

        var writer = BtsnoopWriter()
        let origin = Timestamp(seconds: 1_795_000_000)
        for (at, uuid, minor, rssi) in script {
            let beacon = BeaconID(uuid: BeaconUUID(uuid)!, major: uuid == Self.uuid ? 7 : 1, minor: UInt16(minor))
            writer.append(
                AdvertisingReport(
                    time: origin.advanced(by: .milliseconds(Int64(at * 1000))),
                    address: "C0:FF:EE:00:00:07",
                    rssi: rssi,
                    data: AdvertisingData.iBeacon(beacon, measuredPower: -59)
                )
            )
        }
        let replayed = try Workspace(bus: nil)
        let capture = replayed.directory.appendingPathComponent("tags.btsnoop").path
        try Data(writer.bytes).write(to: URL(fileURLWithPath: capture))
        let result = try WaymarkBinary.run(["replay", capture, "--print", "--config", replayed.config])
        #expect(result.status == 0, "\(result.stderr)")
        let replayEvents = Self.summary(Self.events(result.stdout, ["region", "beacon"]))
        #expect(replayEvents == liveEvents)
        #expect(
            replayEvents == [
                "type=region event=enter id=fleet major=7 minor=42",
                "type=region event=enter id=trailer-7 major=7 minor=42",
                "type=beacon event=appeared id=trailer-7 major=7 minor=42 proximity=near",
                "type=beacon event=proximity id=trailer-7 major=7 minor=42 proximity=immediate",
                "type=region event=exit id=fleet major=7 minor=42",
                "type=region event=exit id=trailer-7 major=7 minor=42",
                "type=beacon event=lost id=trailer-7 major=7 minor=42 proximity=unknown",
            ]
        )
    }
}
