import Foundation
import Testing
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// The board as an iBeacon, against a real `dbus-daemon` with python3-dbusmock's BlueZ stand-in given BlueZ's
/// `LEAdvertisingManager1` (`Tests/Fixtures/bluez/advertising-manager.py`, which reads the advertisement with
/// `GetAll` from the agent and refuses what bluetoothd refuses).
@Suite(.serialized) struct BlueZAdvertiserTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let beacon = BeaconID(uuid: BeaconUUID(uuid)!, major: 12, minor: 3407)

    /// A bus with adapter hci0 advertising up to `instances` at once.
    static func bus(instances: Int = 4) throws -> BlueZTestBus {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        try bus.send(["op": "advertising", "name": "hci0", "max": instances])
        return bus
    }

    static func advertisements(_ bus: BlueZTestBus) throws -> [[String: Any]] {
        try bus.send(["op": "advertisements", "name": "hci0"]) as? [[String: Any]] ?? []
    }

    static func instances(_ bus: BlueZTestBus) throws -> [Int] {
        try bus.send(["op": "instances", "name": "hci0"]) as? [Int] ?? []
    }

    /// An advertiser on `bus`, told to advertise, once BlueZ registered it.
    static func advertising(on bus: BlueZTestBus) throws -> RunningAdvertiser {
        let running = try RunningAdvertiser(bus: bus.address, beacon: beacon)
        running.advertiser.setAdvertising(true)
        do {
            try running.wait("advertising") { $0.changes == ["on"] }
        } catch {
            running.stop()
            throw error
        }
        return running
    }

    /// The frame BlueZ read, decoded: Apple's manufacturer data, through Waymark's own iBeacon parser.
    @Test func registersTheIBeaconFrameThatWaymarksOwnRangingRecognises() throws {
        let bus = try Self.bus()
        let running = try RunningAdvertiser(bus: bus.address, beacon: Self.beacon, measuredPower: -61)
        defer { running.stop() }
        running.advertiser.setAdvertising(true)
        try running.wait("advertising") { $0.changes == ["on"] }
        let records = try Self.advertisements(bus)
        try #require(records.count == 1)
        let record = records[0]
        #expect(record["Type"] as? String == "broadcast")
        #expect(record["path"] as? String == "/org/waymark/beacon0")
        #expect(record["MinInterval"] as? Int == 100)
        #expect(record["MaxInterval"] as? Int == 100)
        let data = try #require(record["ManufacturerData"] as? [String: String])
        #expect(Array(data.keys) == ["76"])  // 0x004C, Apple
        let hex = try #require(data["76"])
        // Exactly iBeacon's frame: 02 15, the UUID, major 12 (000C), minor 3407 (0D4F), -61 (C3).
        #expect(hex == "0215E2C56DB5DFFB48D2B060D0F5A71096E0000C0D4FC3")
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        let sighting = try IBeaconFrame.parse(bytes, rssi: -70).get()
        #expect(sighting == BeaconSighting(beacon: Self.beacon, measuredPower: -61, rssi: -70))
        #expect(try Self.instances(bus) == [1, 3])
    }

    @Test func stopsWhenToldAndAtAStopAndStartsAgain() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        defer { running.stop() }
        running.advertiser.setAdvertising(false)
        try running.wait("a stop") { $0.changes == ["on", "off"] }
        #expect(try Self.instances(bus) == [0, 4])
        running.advertiser.setAdvertising(true)
        try running.wait("advertising again") { $0.changes == ["on", "off", "on"] }
        #expect(try Self.instances(bus) == [1, 3])
        // A clean exit unregisters before the connection closes.
        running.stop()
        #expect(running.changes == ["on", "off", "on", "off"])
        #expect(try Self.instances(bus) == [0, 4])
        #expect(running.failures.isEmpty)
    }

    @Test func refusedWhenNoInstanceIsFreeThenRetriedUntilOneIs() throws {
        let bus = try Self.bus(instances: 1)
        let other = try RunningAdvertiser(
            bus: bus.address,
            beacon: BeaconID(uuid: Self.beacon.uuid, major: 1, minor: 1)
        )
        other.advertiser.setAdvertising(true)
        try other.wait("the other advertiser") { $0.changes == ["on"] }
        let running = try RunningAdvertiser(bus: bus.address, beacon: Self.beacon)
        defer { running.stop() }
        running.advertiser.setAdvertising(true)
        try running.wait("a refusal") { $0.failures == [.bluetoothAdvertisingRefused] }
        let message = running.events.compactMap { if case .failure(let failure) = $0 { failure.message } else { nil } }
        #expect(message.first?.contains("org.bluez.Error.NotPermitted") == true)
        #expect(message.first?.contains("Maximum advertisements reached") == true)
        #expect(running.changes.isEmpty)
        // The instance comes free: the retry registers, said once.
        other.stop()
        try running.wait("advertising after the retry", seconds: 15) { $0.changes == ["on"] }
        #expect(running.failures == [.bluetoothAdvertisingRefused])
    }

    @Test func anIntervalBlueZRefusesIsSaidAndNeverCrashes() throws {
        let bus = try Self.bus()
        // 10 ms: under BlueZ's 20 ms, refused by bluetoothd's parser as "Failed to parse advertisement."
        let running = try RunningAdvertiser(bus: bus.address, beacon: Self.beacon, interval: .milliseconds(10))
        defer { running.stop() }
        running.advertiser.setAdvertising(true)
        try running.wait("a refusal") { $0.failures == [.bluetoothAdvertisingRefused] }
        let message = running.events.compactMap { if case .failure(let failure) = $0 { failure.message } else { nil } }
        #expect(message.first?.contains("org.bluez.Error.Failed: Failed to parse advertisement.") == true)
        #expect(try Self.advertisements(bus).isEmpty)
        usleep(500_000)
        #expect(running.changes.isEmpty)
    }

    @Test func registersAgainAfterBluetoothdRestartsAndAfterARelease() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        defer { running.stop() }

        // bluetoothd calls Release (its manager goes): stopped, then registered again.
        #expect(try bus.send(["op": "release", "name": "hci0"]) as? Int == 1)
        try running.wait("a release and a new registration") { $0.changes == ["on", "off released", "on"] }
        #expect(try Self.advertisements(bus).count == 2)

        // bluetoothd stops and comes back (with its adapter and manager): registered again.
        bus.stopBlueZ()
        try running.wait("bluetoothd gone") { $0.changes.last == "off bluetoothd_gone" }
        try bus.startBlueZ()
        try bus.send(["op": "adapter", "name": "hci0"])
        try bus.send(["op": "advertising", "name": "hci0", "max": 4])
        try running.wait("advertising again", seconds: 15) { $0.changes.count == 5 }
        #expect(running.changes == ["on", "off released", "on", "off bluetoothd_gone", "on"])
        #expect(try Self.advertisements(bus).count == 1)
        #expect(running.failures.contains(.bluetoothUnavailable))
    }

    /// Review of issue 41, finding 1: a refusal said once was never said again once the wish went off and on.
    @Test func aRefusalIsSaidAgainWhenAdvertisingIsWantedAgain() throws {
        let bus = try Self.bus(instances: 0)
        let running = try RunningAdvertiser(bus: bus.address, beacon: Self.beacon)
        defer { running.stop() }
        running.advertiser.setAdvertising(true)
        try running.wait("a refusal") { $0.failures == [.bluetoothAdvertisingRefused] }
        running.advertiser.setAdvertising(false)
        usleep(300_000)  // the advertiser's thread takes the wish that ends
        running.advertiser.setAdvertising(true)
        try running.wait("the refusal said again") {
            $0.failures == [.bluetoothAdvertisingRefused, .bluetoothAdvertisingRefused]
        }
        #expect(running.changes.isEmpty)
    }

    /// Finding 3: the radio off is a stop (nothing goes out), on again advertising again, and each time said.
    @Test func theAdapterPoweredOffAndOnAgain() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        defer { running.stop() }
        for round in 1...2 {
            try bus.send(["op": "power", "name": "hci0", "on": false])
            try running.wait("the adapter off, round \(round)") {
                $0.changes.last == "off adapter_off" && $0.failures.count == round
            }
            try bus.send(["op": "power", "name": "hci0", "on": true])
            try running.wait("advertising again, round \(round)") { $0.changes.count == 1 + 2 * round }
        }
        #expect(running.changes == ["on", "off adapter_off", "on", "off adapter_off", "on"])
        #expect(running.failures == [.bluetoothAdapterOff, .bluetoothAdapterOff])
        // bluetoothd kept the one registration through both: none was added.
        #expect(try Self.advertisements(bus).count == 1)
        #expect(try Self.instances(bus) == [1, 3])
    }

    /// Finding 4: an unregistration that fails must not leave the board advertising while it should be silent.
    @Test func aFailedUnregistrationDropsTheConnectionSoBlueZRemovesTheAdvertisement() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        defer { running.stop() }
        try bus.send(["op": "refuse_unregister", "name": "hci0"])
        running.advertiser.setAdvertising(false)
        try running.wait("a stop") { $0.changes == ["on", "off"] }
        #expect(running.failures == [.bluetoothAdvertisingRefused])
        try running.wait("the advertisement gone from BlueZ", seconds: 5) { _ in
            (try? Self.instances(bus)) == [0, 4]
        }
        // Wanted again: a new connection registers, not refused as AlreadyExists.
        running.advertiser.setAdvertising(true)
        try running.wait("advertising again") { $0.changes == ["on", "off", "on"] }
        #expect(try Self.instances(bus) == [1, 3])
    }

    /// Finding 6: a slow bluetoothd must not hold the agent's exit (and its last commit) for sd-bus's 25 s.
    @Test func theUnregistrationAtExitWaitsTwoSecondsAtMost() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        try bus.send(["op": "delay_unregister", "name": "hci0", "seconds": 6])
        let start = Date()
        running.stop()
        let took = Date().timeIntervalSince(start)
        #expect(running.hasEnded)
        #expect(took >= 1.5 && took < 4, "the stop took \(took) s")
        #expect(running.failures == [.bluetoothAdvertisingRefused])
        // The connection closed: bluetoothd, once it answers again, has removed the advertisement.
        try running.wait("the advertisement gone from BlueZ", seconds: 10) { _ in
            (try? Self.instances(bus)) == [0, 4]
        }
    }

    @Test func theAdapterRemovedAndAddedAgain() throws {
        let bus = try Self.bus()
        let running = try Self.advertising(on: bus)
        defer { running.stop() }
        try bus.send(["op": "remove_adapter", "name": "hci0"])
        try running.wait("the adapter removed") { $0.changes == ["on", "off adapter_removed"] }
        #expect(running.failures == [.bluetoothNoAdapter])
        try bus.send(["op": "adapter", "name": "hci0"])
        try bus.send(["op": "advertising", "name": "hci0", "max": 4])
        try running.wait("advertising again", seconds: 15) { $0.changes == ["on", "off adapter_removed", "on"] }
    }

    @Test func scanningAndAdvertisingTogetherOnOneAdapter() throws {
        let bus = try Self.bus()
        let running = try RunningAdvertiser(bus: bus.address, beacon: Self.beacon)
        defer { running.stop() }
        let scanner = RunningScanner(bus: bus.address)
        defer { scanner.stop() }
        running.advertiser.setAdvertising(true)
        try running.wait("advertising") { $0.changes == ["on"] }
        try scanner.wait("scanning") { $0.contains(.scanning(true)) }
        #expect(try bus.send(["op": "discovering", "name": "hci0"]) as? Bool == true)
        #expect(try Self.instances(bus) == [1, 3])
        #expect(running.failures.isEmpty)
        #expect(scanner.failures.isEmpty)
    }
}
