import Testing
import WaymarkBluetooth
import WaymarkCore

@Suite("BtsnoopReader: LE advertising reports from btsnoop captures")
struct BtsnoopReaderTests {
    static let expected = AdvertisingReport(
        time: Timestamp(seconds: 1_714_564_800, nanoseconds: 250_000_000),
        address: "C1:22:33:44:55:66",
        rssi: -70,
        data: Array(BtsnoopBytes.iBeaconEvent[13..<43])
    )

    /// One datalink's file of the iBeacon event between two records that are not advertising reports.
    struct Layout: Sendable, CustomTestStringConvertible {
        var datalink: BtsnoopDatalink
        var bytes: [UInt8]
        var testDescription: String { "datalink \(datalink)" }

        static let all: [Layout] = [
            // btmon -w: flags are (adapter index << 16) | opcode. Opcode 0 is New Index (its type, bus, address
            // and name), 3 an HCI event, here on hci1.
            Layout(
                datalink: .linuxMonitor,
                bytes: BtsnoopBytes.header(datalink: 2001)
                    + BtsnoopBytes.record(
                        [0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00] + Array("hci1\0\0\0\0".utf8),
                        flags: 0x0001_0000,
                        microseconds: BtsnoopBytes.mayDay - 5
                    )
                    + BtsnoopBytes.record(
                        BtsnoopBytes.iBeaconEvent,
                        flags: 0x0001_0003,
                        microseconds: BtsnoopBytes.mayDay
                    )
                    + BtsnoopBytes.record(BtsnoopBytes.commandComplete, flags: 0x0001_0003, microseconds: 0)
            ),
            // H4: the packet's first byte is its type: 0x01 command, 0x04 event. Flags: bit 0 received.
            Layout(
                datalink: .hciUART,
                bytes: BtsnoopBytes.header(datalink: 1002)
                    + BtsnoopBytes.record([0x01, 0x0C, 0x20, 0x02, 0x01, 0x00], flags: 2, microseconds: 0)
                    + BtsnoopBytes.record(
                        [0x04] + BtsnoopBytes.iBeaconEvent,
                        flags: 3,
                        microseconds: BtsnoopBytes.mayDay
                    )
                    + BtsnoopBytes.record([0x04] + BtsnoopBytes.commandComplete, flags: 3, microseconds: 0)
            ),
            // Un-encapsulated: flags 2 a command sent, 3 an event received, 1 ACL data received.
            Layout(
                datalink: .hciUnencapsulated,
                bytes: BtsnoopBytes.header(datalink: 1001)
                    + BtsnoopBytes.record([0x0C, 0x20, 0x02, 0x01, 0x00], flags: 2, microseconds: 0)
                    + BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
                    + BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 1, microseconds: 0)
            ),
        ]
    }

    @Test("a real LE Advertising Report event, written out byte by byte, in each datalink", arguments: Layout.all)
    func handWritten(_ layout: Layout) throws {
        let capture = try BtsnoopReader(parsing: layout.bytes, fileName: "hand.btsnoop")
        #expect(capture.datalink == layout.datalink)
        #expect(capture.reports == [Self.expected])
        #expect(capture.recordCount == 3)
        #expect(capture.otherRecordCount == 2)
        #expect(capture.malformedRecordCount == 0)
        #expect(capture.problems.isEmpty)
        let report = try #require(capture.reports.first)
        #expect(
            AdvertisingData.manufacturerData(companyID: AdvertisingData.appleCompanyID, in: report.data)
                == BtsnoopBytes.iBeaconFrame
        )
    }

    @Test("an event of several legacy reports, one without an RSSI (127), read one after the other")
    func severalReports() throws {
        let event: [UInt8] = [
            0x3E, 0x19,  // LE Meta, 25 bytes of parameters
            0x02, 0x02,  // LE Advertising Report, 2 reports
            0x00, 0x00, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // ADV_IND, public, 01:02:03:04:05:06
            0x03,  // data length: 3
            0x02, 0x01, 0x06,  // AD: Flags
            0x80,  // RSSI: -128 dBm
            0x04, 0x01, 0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA,  // SCAN_RSP, random, AA:BB:CC:DD:EE:FF
            0x00,  // no data
            0x7F,  // RSSI: 127, not available
        ]
        #expect(event.count == 2 + 0x19)
        let bytes =
            BtsnoopBytes.header(datalink: 2001)
            + BtsnoopBytes.record(event, flags: 3, microseconds: Timestamp.btsnoopUnixEpoch + 1)
        let capture = try BtsnoopReader(parsing: bytes, fileName: "two.btsnoop")
        let time = Timestamp(seconds: 0, nanoseconds: 1000)
        #expect(
            capture.reports == [
                AdvertisingReport(time: time, address: "01:02:03:04:05:06", rssi: -128, data: [0x02, 0x01, 0x06]),
                AdvertisingReport(time: time, address: "AA:BB:CC:DD:EE:FF", rssi: nil, data: []),
            ]
        )
    }

    /// An LE Extended Advertising Report of two reports: the iBeacon's data on LE 1M, then an empty one on
    /// LE Coded without an RSSI.
    static let extendedEvent: [UInt8] =
        [
            0x3E, 0x50,  // LE Meta, 80 bytes of parameters: 2 + 24 + 30 + 24
            0x0D, 0x02,  // LE Extended Advertising Report, 2 reports
            0x10, 0x00,  // event type: legacy PDU, non-connectable (0x0010), little-endian
            0x01,  // address type: random
            0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,  // address C1:22:33:44:55:66
            0x01,  // primary PHY: LE 1M
            0x00,  // secondary PHY: none
            0xFF,  // advertising SID: none
            0x7F,  // TX power: not available
            0xBA,  // RSSI: -70 dBm
            0x00, 0x00,  // periodic advertising interval: none
            0x00,  // direct address type
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // direct address
            0x1E,  // data length: 30
        ] + Array(BtsnoopBytes.iBeaconEvent[13..<43])
        + [
            0x00, 0x00, 0x00,  // event type 0 (extended, non-connectable), public address
            0x0F, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A,  // address 0A:0B:0C:0D:0E:0F
            0x03, 0x03, 0x01, 0x7F,  // primary PHY LE Coded, secondary LE Coded, SID 1, TX power n/a
            0x7F,  // RSSI: not available
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // interval, direct address type and address
            0x00,  // data length: 0
        ]

    @Test("LE Extended Advertising Reports: each report's address, RSSI and data")
    func extended() throws {
        #expect(Self.extendedEvent.count == 82)
        let bytes =
            BtsnoopBytes.header(datalink: 2001)
            + BtsnoopBytes.record(Self.extendedEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
        let capture = try BtsnoopReader(parsing: bytes, fileName: "extended.btsnoop")
        #expect(
            capture.reports == [
                Self.expected,
                AdvertisingReport(time: Self.expected.time, address: "0A:0B:0C:0D:0E:0F", rssi: nil, data: []),
            ]
        )
        #expect(capture.otherRecordCount == 0 && capture.malformedRecordCount == 0)
    }

    @Test("other events, LE Meta subevents and records are skipped and counted, not reported")
    func skipped() throws {
        let connectionComplete: [UInt8] = [0x3E, 0x03, 0x01, 0x00, 0x40]  // LE Meta, LE Connection Complete (cut)
        let bytes =
            BtsnoopBytes.header(datalink: 2001)
            + BtsnoopBytes.record(connectionComplete, flags: 3, microseconds: 0)
            + BtsnoopBytes.record([0x3E, 0x01, 0x02], flags: 2, microseconds: 0)  // opcode 2: a command
            + BtsnoopBytes.record(Array("Bluetooth daemon 5.66".utf8), flags: 12, microseconds: 0)  // system note
            + BtsnoopBytes.record([], flags: 3, microseconds: 0)  // an empty event is no LE Meta event
        let capture = try BtsnoopReader(parsing: bytes, fileName: "other.btsnoop")
        #expect(capture.reports.isEmpty)
        #expect(capture.recordCount == 4 && capture.otherRecordCount == 4 && capture.malformedRecordCount == 0)
    }

    @Test("a header alone is a capture without records")
    func empty() throws {
        let capture = try BtsnoopReader(parsing: BtsnoopBytes.header(datalink: 2001), fileName: "empty.btsnoop")
        #expect(capture.reports.isEmpty && capture.recordCount == 0)
    }
}

@Suite("Btsnoop time: microseconds since 0 AD")
struct BtsnoopTimeTests {
    @Test("the epochs of 1970 and 2000, and a known instant, both ways")
    func knownInstants() throws {
        #expect(Timestamp(btsnoopMicroseconds: 0x00DC_DDB3_0F2F_8000) == Timestamp(seconds: 0))
        // The equivalent epoch of the format's description: midnight, 1 January 2000.
        #expect(Timestamp(btsnoopMicroseconds: 0x00E0_3AB4_4A67_6000) == Timestamp(seconds: 946_684_800))
        let mayDay = Timestamp(seconds: 1_714_564_800, nanoseconds: 250_000_000)
        #expect(Timestamp(btsnoopMicroseconds: BtsnoopBytes.mayDay) == mayDay)
        #expect(mayDay.btsnoopMicroseconds == BtsnoopBytes.mayDay)
        #expect(Timestamp(iso8601: "2024-05-01T12:00:00.250Z") == mayDay)
    }

    @Test("before 1970, sub-microseconds rounded down, and the ends of the range")
    func edges() {
        #expect(
            Timestamp(btsnoopMicroseconds: Timestamp.btsnoopUnixEpoch - 1)
                == Timestamp(seconds: -1, nanoseconds: 999_999_000)
        )
        #expect(Timestamp(seconds: 0, nanoseconds: 1999).btsnoopMicroseconds == Timestamp.btsnoopUnixEpoch + 1)
        #expect(Timestamp(btsnoopMicroseconds: 0) != nil)
        #expect(Timestamp(btsnoopMicroseconds: .min) == nil)
        #expect(Timestamp(seconds: .max / 1_000_000).btsnoopMicroseconds == nil)
    }
}
