import Testing
import WaymarkBluetooth
import WaymarkCore

@Suite("BtsnoopReader: malformed captures are errors with their offset, never a crash")
struct BtsnoopMalformedTests {
    /// A capture whose structure is broken, and the error it must throw.
    struct Refused: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var code: BtsnoopError.Code
        var description: String
        var testDescription: String { description }

        static let good =
            BtsnoopBytes.header(datalink: 2001)
            + BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)

        static let all: [Refused] = [
            Refused(
                bytes: [],
                code: .notBtsnoop,
                description: "cap.btsnoop: byte 0: 0 bytes: shorter than the 16-byte btsnoop header; not a btsnoop "
                    + "capture"
            ),
            Refused(
                bytes: Array(good.prefix(15)),
                code: .notBtsnoop,
                description: "cap.btsnoop: byte 0: 15 bytes: shorter than the 16-byte btsnoop header; not a btsnoop "
                    + "capture"
            ),
            Refused(
                bytes: Array("btsnoop\0".utf8.reversed()) + Array(good.dropFirst(8)),
                code: .notBtsnoop,
                description: "cap.btsnoop: byte 0: does not start with \"btsnoop\\0\": not a btsnoop capture (btmon -w "
                    + "writes one)"
            ),
            Refused(
                bytes: BtsnoopBytes.header(datalink: 2001, version: 2) + good.dropFirst(16),
                code: .unsupportedVersion,
                description: "cap.btsnoop: byte 8: btsnoop version 2: only version 1 is read"
            ),
            Refused(
                bytes: BtsnoopBytes.header(datalink: 1003) + good.dropFirst(16),
                code: .unsupportedDatalink,
                description: "cap.btsnoop: byte 12: datalink 1003: only 1001 (un-encapsulated HCI), 1002 (HCI UART, "
                    + "H4) and 2001 (Linux monitor, btmon -w) are read"
            ),
            Refused(
                bytes: Array(good.prefix(16 + 23)),
                code: .truncated,
                description: "cap.btsnoop: byte 16: record 0: the file ends 23 bytes into its 24-byte header: the "
                    + "capture was cut short"
            ),
            Refused(
                bytes: Array(good.dropLast()),
                code: .truncated,
                description: "cap.btsnoop: byte 20: record 0: its included length 44 runs past the end of the file "
                    + "(43 bytes left): the capture was cut short"
            ),
            Refused(
                bytes: good + good.dropFirst(16).prefix(30),
                code: .truncated,
                description: "cap.btsnoop: byte 88: record 1: its included length 44 runs past the end of the file "
                    + "(6 bytes left): the capture was cut short"
            ),
            Refused(
                bytes: BtsnoopBytes.header(datalink: 2001)
                    + BtsnoopBytes.record([], flags: 3, microseconds: 0, originalLength: 0, includedLength: 0xFFFF_FFFF),
                code: .truncated,
                description: "cap.btsnoop: byte 20: record 0: its included length 4294967295 runs past the end of "
                    + "the file (0 bytes left): the capture was cut short"
            ),
        ]
    }

    @Test("a broken structure is thrown, naming the file, the offset and what is wrong", arguments: Refused.all)
    func refused(_ refused: Refused) {
        let error = #expect(throws: BtsnoopError.self) {
            try BtsnoopReader(parsing: refused.bytes, fileName: "cap.btsnoop")
        }
        #expect(error?.code == refused.code)
        #expect(error?.description == refused.description)
    }

    /// A record whose packet is wrong, between two good records, and the problem it must give.
    struct Skipped: Sendable, CustomTestStringConvertible {
        var record: [UInt8]
        var offset: Int
        var message: String
        var testDescription: String { message }

        /// The iBeacon event with its byte `index` replaced by `value`.
        static func changed(_ index: Int, to value: UInt8) -> [UInt8] {
            var event = BtsnoopBytes.iBeaconEvent
            event[index] = value
            return event
        }

        static func event(_ packet: [UInt8]) -> [UInt8] {
            BtsnoopBytes.record(packet, flags: 3, microseconds: BtsnoopBytes.mayDay)
        }

        /// Where the second record's packet starts: after the header, the first record and the second's header.
        static let packet = 16 + 24 + 44 + 24

        static let all: [Skipped] = [
            Skipped(
                record: event([0x3E]),
                offset: packet,
                message: "record 1: an LE Meta event of 1 byte: its header is 2 bytes; the record is skipped"
            ),
            Skipped(
                record: event(changed(1, to: 43)),
                offset: packet + 1,
                message: "record 1: LE Meta event: its parameter length 43 runs past the end of the packet (42 bytes "
                    + "left); the record is skipped"
            ),
            Skipped(
                record: event([0x3E, 0x00]),
                offset: packet + 2,
                message: "record 1: LE Meta event without a subevent code; the record is skipped"
            ),
            Skipped(
                record: event([0x3E, 0x01, 0x02]),
                offset: packet + 3,
                message: "record 1: LE Advertising Report without its number of reports; the record is skipped"
            ),
            Skipped(
                record: event(changed(3, to: 2)),
                offset: packet + 44,
                message: "record 1: LE Advertising Report, report 2 of 2: the part up to its data length needs 9 "
                    + "bytes, but the event has 0 left; the record is skipped"
            ),
            Skipped(
                record: event(changed(12, to: 31)),
                offset: packet + 13,
                message: "record 1: LE Advertising Report, report 1 of 1: its data (length 31) with the RSSI after "
                    + "it needs 32 bytes, but the event has 31 left; the record is skipped"
            ),
            Skipped(
                record: event([0x3E, 0x0A, 0x0D, 0x01] + [UInt8](repeating: 0, count: 8)),
                offset: packet + 4,
                message: "record 1: LE Extended Advertising Report, report 1 of 1: the part up to its data length "
                    + "needs 24 bytes, but the event has 8 left; the record is skipped"
            ),
            Skipped(
                record: event([0x3E, 0x1B, 0x0D, 0x01] + [UInt8](repeating: 0, count: 23) + [0x05, 0xAA]),
                offset: packet + 28,
                message: "record 1: LE Extended Advertising Report, report 1 of 1: its data (length 5) needs 5 bytes, "
                    + "but the event has 1 left; the record is skipped"
            ),
            Skipped(
                record: BtsnoopBytes.record(
                    BtsnoopBytes.iBeaconEvent,
                    flags: 3,
                    microseconds: 0,
                    originalLength: 43
                ),
                offset: packet - 20,
                message: "record 1: its included length 44 is more than its original length 43; the record is skipped"
            ),
            Skipped(
                record: BtsnoopBytes.record(
                    Array(BtsnoopBytes.iBeaconEvent.prefix(20)),
                    flags: 3,
                    microseconds: 0,
                    originalLength: 44
                ),
                offset: packet + 1,
                message: "record 1: LE Meta event: its parameter length 42 runs past the end of the packet (18 bytes "
                    + "left); the capture kept 20 of its 44 bytes; the record is skipped"
            ),
            Skipped(
                record: BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: .min),
                offset: packet - 8,
                message: "record 1: its time -9223372036854775808 µs is out of range (before 290,000 BC); the record "
                    + "is skipped"
            ),
        ]
    }

    @Test(
        "a bad record in a good file is skipped and counted, its problem kept with its offset",
        arguments: Skipped.all
    )
    func skipped(_ skipped: Skipped) throws {
        let good = BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
        let bytes = BtsnoopBytes.header(datalink: 2001) + good + skipped.record + good
        let capture = try BtsnoopReader(parsing: bytes, fileName: "cap.btsnoop")
        #expect(capture.reports.count == 2)
        #expect(capture.reports.allSatisfy { $0 == BtsnoopReaderTests.expected })
        #expect(capture.recordCount == 3)
        #expect(capture.malformedRecordCount == 1)
        #expect(capture.otherRecordCount == 0)
        #expect(
            capture.problems == [
                BtsnoopError(
                    code: .malformedRecord,
                    file: "cap.btsnoop",
                    offset: skipped.offset,
                    message: skipped.message
                )
            ]
        )
    }

    @Test("an empty H4 packet is a malformed record")
    func emptyUARTPacket() throws {
        let bytes = BtsnoopBytes.header(datalink: 1002) + BtsnoopBytes.record([], flags: 3, microseconds: 0)
        let capture = try BtsnoopReader(parsing: bytes, fileName: "cap.btsnoop")
        #expect(capture.malformedRecordCount == 1)
        #expect(
            capture.problems.map(\.description) == [
                "cap.btsnoop: byte 40: record 0: an empty packet: H4 packets start with their type byte; the record "
                    + "is skipped"
            ]
        )
    }

    @Test("past the most problems kept, bad records are still counted and skipped")
    func manyProblems() throws {
        let bad = BtsnoopBytes.record([0x3E, 0x05, 0x02], flags: 3, microseconds: 0)
        let count = BtsnoopReader.maximumProblems + 50
        let bytes =
            BtsnoopBytes.header(datalink: 2001) + Array([[UInt8]](repeating: bad, count: count).joined())
            + BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
        let capture = try BtsnoopReader(parsing: bytes, fileName: "cap.btsnoop")
        #expect(capture.malformedRecordCount == count)
        #expect(capture.problems.count == BtsnoopReader.maximumProblems)
        #expect(capture.problems.last?.offset == 16 + (BtsnoopReader.maximumProblems - 1) * 27 + 25)
        #expect(capture.reports == [BtsnoopReaderTests.expected])
    }

    @Test("every prefix and every one-byte change of a good capture reads or throws, never traps or hangs")
    func everyPrefixAndByte() throws {
        let good =
            BtsnoopBytes.header(datalink: 2001)
            + BtsnoopBytes.record(BtsnoopBytes.iBeaconEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
            + BtsnoopBytes.record(BtsnoopReaderTests.extendedEvent, flags: 3, microseconds: BtsnoopBytes.mayDay)
        var thrown = 0
        for length in 0..<good.count {
            do {
                _ = try BtsnoopReader(parsing: Array(good.prefix(length)), fileName: "cap.btsnoop")
            } catch {
                thrown += 1
            }
        }
        // Only the lengths that end exactly after the header or after the first record read.
        #expect(thrown == good.count - 2)
        for index in good.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var bytes = good
                bytes[index] = value
                if let capture = try? BtsnoopReader(parsing: bytes, fileName: "cap.btsnoop") {
                    // Each record takes 24 bytes at least, each report 10.
                    #expect(capture.recordCount <= (bytes.count - 16) / 24)
                    #expect(capture.reports.count <= bytes.count / 10)
                }
            }
        }
    }
}
