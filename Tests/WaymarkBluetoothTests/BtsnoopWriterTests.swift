import Glibc
import Testing
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

@Suite("BtsnoopWriter: synthetic btmon captures that the reader and btmon read back")
struct BtsnoopWriterTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    /// Three advertisements: an iBeacon, another beacon of the UUID without an RSSI, and a non-beacon.
    static let reports = [
        AdvertisingReport(
            time: Timestamp(seconds: 1_714_564_800, nanoseconds: 250_000_000),
            address: "C1:22:33:44:55:66",
            rssi: -70,
            data: AdvertisingData.iBeacon(BeaconID(uuid: uuid, major: 1, minor: 7), measuredPower: -59)
        ),
        AdvertisingReport(
            time: Timestamp(seconds: 1_714_564_801, nanoseconds: 999_999_000),
            address: "0A:0B:0C:0D:0E:0F",
            rssi: nil,
            data: AdvertisingData.iBeacon(BeaconID(uuid: uuid, major: 65_535, minor: 0), measuredPower: -100)
        ),
        AdvertisingReport(
            time: Timestamp(seconds: 1_000_000_000),
            address: "FF:EE:DD:CC:BB:AA",
            rssi: -128,
            data: [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE]
        ),
    ]

    static var capture: [UInt8] {
        var writer = BtsnoopWriter()
        for report in reports { writer.append(report) }
        return writer.bytes
    }

    @Test("reports written are read back equal, in order")
    func roundTrip() throws {
        let read = try BtsnoopReader(parsing: Self.capture, fileName: "synthetic.btsnoop")
        #expect(read.datalink == .linuxMonitor)
        #expect(read.reports == Self.reports)
        #expect(read.recordCount == 3 && read.otherRecordCount == 0 && read.malformedRecordCount == 0)
    }

    @Test("times before 1970 and the sub-microsecond part: what btsnoop's microseconds keep")
    func times() throws {
        var writer = BtsnoopWriter()
        var report = Self.reports[2]
        for time in [Timestamp(seconds: -86_400), Timestamp(seconds: -1, nanoseconds: 999_999_999)] {
            report.time = time
            writer.append(report)
        }
        let read = try BtsnoopReader(parsing: writer.bytes, fileName: "synthetic.btsnoop")
        #expect(
            read.reports.map(\.time) == [Timestamp(seconds: -86_400), Timestamp(seconds: -1, nanoseconds: 999_999_000)]
        )
    }

    @Test("the layout of btmon -w: the header, then the hand-written event's record byte for byte")
    func layout() {
        var writer = BtsnoopWriter()
        #expect(writer.bytes == BtsnoopBytes.header(datalink: 2001))
        var report = BtsnoopReaderTests.expected
        writer.append(report)
        // The writer's event differs from the hand-written one only in its address type: public, not random.
        var event = BtsnoopBytes.iBeaconEvent
        event[5] = 0x00
        #expect(
            writer.bytes
                == BtsnoopBytes.header(datalink: 2001)
                + BtsnoopBytes.record(event, flags: 3, microseconds: BtsnoopBytes.mayDay)
        )
        var second = BtsnoopWriter(adapterIndex: 2)
        report.time = report.time.advanced(by: .nanoseconds(999))
        second.append(report)
        #expect(
            second.bytes.dropFirst(16)
                == ArraySlice(BtsnoopBytes.record(event, flags: 0x0002_0003, microseconds: BtsnoopBytes.mayDay))
        )
    }

    static let btmon = "/usr/bin/btmon"

    @Test(
        "btmon -r, an independent reader, shows the advertisements: Apple's iBeacon, address, RSSI and time",
        .enabled(
            if: access(btmon, X_OK) == 0,
            "/usr/bin/btmon is not installed (Debian's bluez package): the independent reader cannot run"
        )
    )
    func btmonReadsIt() throws {
        let path = try TemporaryCapture(Self.capture)
        defer { path.remove() }
        let result = try WaymarkBinary.run(
            ["-T", "-r", path.path],
            executable: Self.btmon,
            environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        )
        #expect(result.status == 0, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        #expect(lines.filter { $0.hasPrefix("LE Advertising Report (0x02)") }.count == 3, "\(result.stdout)")
        #expect(lines.filter { $0 == "Company: Apple, Inc. (76)" }.count == 2, "\(result.stdout)")
        #expect(lines.filter { $0 == "Type: iBeacon (2)" }.count == 2, "\(result.stdout)")
        for address in ["C1:22:33:44:55:66", "0A:0B:0C:0D:0E:0F", "FF:EE:DD:CC:BB:AA"] {
            #expect(lines.contains { $0.hasPrefix("Address: \(address)") }, "\(address): \(result.stdout)")
        }
        #expect(lines.contains("RSSI: -70 dBm (0xba)"), "\(result.stdout)")
        #expect(lines.contains("RSSI: -128 dBm (0x80)"), "\(result.stdout)")
        #expect(lines.contains("TX power: -59 dB") && lines.contains("TX power: -100 dB"), "\(result.stdout)")
        // btmon 5.66 prints the iBeacon UUID with its bytes reversed, and major and minor as one little-endian
        // "version" each: 1 and 7 are 00 01 and 00 07 on the air, 256 and 1792 to btmon.
        #expect(lines.contains("UUID: e09610a7-f5d0-60b0-d248-fbdfb56dc5e2"), "\(result.stdout)")
        #expect(lines.contains("Version: 256.1792"), "\(result.stdout)")
        // The times, as btmon converts btsnoop's microseconds since 0 AD.
        #expect(result.stdout.contains("2024-05-01 12:00:00.250000"), "\(result.stdout)")
        #expect(result.stdout.contains("2024-05-01 12:00:01.999999"), "\(result.stdout)")
        // btmon counts from 2000 unsigned: a time before 2000 would show as the year 586524.
        #expect(result.stdout.contains("2001-09-09 01:46:40.000000"), "\(result.stdout)")
    }
}

/// A capture written to a file of its own under /tmp, for a program that reads files.
struct TemporaryCapture {
    let path: String

    init(_ bytes: [UInt8]) throws {
        var template = Array("/tmp/waymark-btsnoop-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw TestServerError("mkstemp: errno \(errno)") }
        defer { close(descriptor) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestServerError("\(path): written \(written) bytes") }
    }

    func remove() { unlink(path) }
}
