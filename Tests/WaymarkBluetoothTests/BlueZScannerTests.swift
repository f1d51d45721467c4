import Foundation
import Synchronization
import Testing
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// The live source against a real `dbus-daemon` with python3-dbusmock's BlueZ stand-in: discovery, sightings,
/// frames refused, an adapter switched off and on, bluetoothd gone and back.
@Suite(.serialized) struct BlueZScannerTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    static func count(_ events: [BeaconSourceEvent], _ wanted: BeaconSourceEvent) -> Int {
        events.filter { $0 == wanted }.count
    }

    @Test func discoversWithTheFilterAndReportsSightingsAndRejections() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let running = RunningScanner(bus: bus.address)
        defer { running.stop() }
        try running.wait("scanning") { $0.contains(.scanning(true)) }
        #expect(try bus.send(["op": "discovering", "name": "hci0"]) as? Bool == true)
        let filter = try bus.send(["op": "filter", "name": "hci0"]) as? [String: Any]
        #expect(filter?["Transport"] as? String == "le")
        #expect(filter?["DuplicateData"] as? Bool == true)

        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:01"]) as? String
        )
        let frame = BlueZTestBus.iBeaconData(uuid: Self.uuid, major: 7, minor: 42, measuredPower: -59)
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": frame])
        try running.wait("a sighting") { !$0.sightings.isEmpty }
        let beacon = BeaconID(uuid: BeaconUUID(Self.uuid)!, major: 7, minor: 42)
        #expect(running.events.sightings == [BeaconSighting(beacon: beacon, measuredPower: -59, rssi: -61)])

        // An RSSI change alone is one more advertisement heard, with the frame BlueZ already holds.
        try bus.send(["op": "rssi", "path": path, "rssi": -70])
        try running.wait("a second sighting") { $0.sightings.count == 2 }
        #expect(running.events.sightings.last?.rssi == -70)

        // Apple data that is no iBeacon, a short frame, a measured power of 0 and +127, an RSSI out of range.
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": "1005031C"])
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": String(frame.dropLast(4))])
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": String(frame.dropLast(2)) + "00"])
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": String(frame.dropLast(2)) + "7F"])
        try bus.send(["op": "advertise", "path": path, "rssi": 127, "data": frame])
        // Another company's data is not Apple's: nothing at all.
        try bus.send(["op": "advertise", "path": path, "rssi": -61, "data": frame, "company": 0x0059])
        try running.wait("five rejections") { events in
            events.filter { if case .rejected = $0 { true } else { false } }.count >= 5
        }
        usleep(300_000)
        let rejected = running.events.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
        #expect(rejected == [.notIBeacon, .badLength, .badMeasuredPower, .badMeasuredPower, .badRSSI])
        // The other company's frame carried RSSI -61 with the iBeacon data BlueZ already held: one more sighting.
        #expect(running.events.sightings.count == 3)
    }

    @Test func anAdapterSwitchedOffAndBluetoothdGoneAreSaidOnceAndRecovered() throws {
        let bus = try BlueZTestBus()
        let running = RunningScanner(bus: bus.address)
        defer { running.stop() }
        try running.wait("no adapter") { $0.failures == [.bluetoothNoAdapter] }
        try bus.send(["op": "adapter", "name": "hci0"])
        try running.wait("scanning") { $0.contains(.scanning(true)) }

        try bus.send(["op": "power", "name": "hci0", "on": false])
        try running.wait("the adapter off") { $0.failures.last == .bluetoothAdapterOff }
        #expect(running.events.last(where: { if case .scanning = $0 { true } else { false } }) == .scanning(false))
        try bus.send(["op": "power", "name": "hci0", "on": true])
        try running.wait("scanning again") { Self.count($0, .scanning(true)) == 2 }

        bus.stopBlueZ()
        try running.wait("bluetoothd gone") { $0.failures.last == .bluetoothUnavailable }
        usleep(1_000_000)
        // Retried with backoff, and said once.
        #expect(running.events.failures.filter { $0 == .bluetoothUnavailable }.count == 1)
        try bus.startBlueZ()
        try bus.send(["op": "adapter", "name": "hci0"])
        try running.wait("scanning after bluetoothd came back") { Self.count($0, .scanning(true)) == 3 }
        let path = try #require(
            try bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:02"]) as? String
        )
        try bus.send([
            "op": "advertise", "path": path, "rssi": -50,
            "data": BlueZTestBus.iBeaconData(uuid: Self.uuid, major: 1, minor: 2),
        ])
        try running.wait("a sighting after recovery") { !$0.sightings.isEmpty }
    }

    @Test func aNamedAdapterThatIsMissingIsSaid() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let running = RunningScanner(bus: bus.address, adapter: "hci1")
        defer { running.stop() }
        try running.wait("no adapter hci1") { $0.failures == [.bluetoothNoAdapter] }
        #expect(!running.events.contains(.scanning(true)))
        try bus.send(["op": "adapter", "name": "hci1"])
        try running.wait("scanning with hci1") { $0.contains(.scanning(true)) }
        #expect(try bus.send(["op": "discovering", "name": "hci0"]) as? Bool == false)
    }

    @Test func aBusThatIsNotThereIsSaidOnce() throws {
        let running = RunningScanner(bus: "unix:path=/nonexistent/waymark-test-bus")
        defer { running.stop() }
        try running.wait("no bus") { $0.failures == [.bluetoothUnavailable] }
        usleep(800_000)
        #expect(running.events.failures == [.bluetoothUnavailable])
    }
}
