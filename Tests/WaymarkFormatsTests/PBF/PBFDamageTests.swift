import Testing
import WaymarkFormats

/// Damaged PBF values that once trapped the builder (an `Int32.min` latitude, an overflowing rounding, a
/// replication time of 2^63) are refused with a ``PBFError``; the same file with sane values reads back exactly.
@Suite struct PBFDamageTests {
    /// A protobuf varint.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    static func field(_ number: UInt64, varint value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }

    /// A file blob: length, `BlobHeader`, and a `Blob` holding `data` uncompressed.
    static func blob(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = field(1, bytes: data)
        let header = field(1, bytes: Array(type.utf8)) + field(3, varint: UInt64(body.count))
        let length = UInt32(header.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + header + body
    }

    /// A file of one node at raw `latitude` units, with `granularity` when given and a header with `replication`.
    static func file(latitude: Int64, granularity: UInt64? = nil, replication: UInt64? = nil) -> [UInt8] {
        let header = field(4, bytes: Array("OsmSchema-V0.6".utf8)) + (replication.map { field(32, varint: $0) } ?? [])
        let node = field(1, varint: zigzag(7)) + field(8, varint: zigzag(latitude)) + field(9, varint: zigzag(0))
        let block =
            field(1, bytes: field(1, bytes: []))
            + field(2, bytes: field(1, bytes: node))
            + (granularity.map { field(17, varint: $0) } ?? [])
        return blob("OSMHeader", header) + blob("OSMData", block)
    }

    static func firstLatitude(_ bytes: [UInt8]) throws -> Int32? {
        var reader = try PBFReader(bytes: bytes)
        return try reader.nextBlock()?.nodes.first?.latitude
    }

    @Test func saneValuesReadBack() throws {
        #expect(try Self.firstLatitude(Self.file(latitude: 601_677_000, replication: 1_700_000_000)) == 601_677_000)
        #expect(try Self.firstLatitude(Self.file(latitude: 60_167_700_000, granularity: 1)) == 601_677_000)
        var reader = try PBFReader(bytes: Self.file(latitude: 0, replication: 1_700_000_000))
        #expect(reader.header.replicationTimestamp == 1_700_000_000)
        _ = try reader.nextBlock()
    }

    @Test(
        arguments: [
            (Int64(Int32.min), nil),  // abs(Int32.min) trapped
            (Int64.max - 10, 1),  // nano + 50 overflowed
            (Int64.min + 10, 1),  // nano - 50 overflowed
            (Int64.max / 50, 100),  // value × granularity overflows
            (1_800_000_001, nil),  // just beyond 180°
        ] as [(Int64, UInt64?)]
    )
    func coordinateOutOfRange(latitude: Int64, granularity: UInt64?) {
        #expect(throws: PBFError.self) {
            _ = try Self.firstLatitude(Self.file(latitude: latitude, granularity: granularity))
        }
    }

    @Test(arguments: [UInt64(1) << 63, UInt64.max, 253_402_300_800])
    func replicationTimeNotADate(_ raw: UInt64) {
        #expect(throws: PBFError.self) { _ = try PBFReader(bytes: Self.file(latitude: 0, replication: raw)) }
    }
}
