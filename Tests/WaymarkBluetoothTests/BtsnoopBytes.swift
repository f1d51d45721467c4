/// Btsnoop files built byte by byte for the tests: a header and records around packets the tests write out.
enum BtsnoopBytes {
    /// `btsnoop\0`, version 1, `datalink`.
    static func header(datalink: UInt32, version: UInt32 = 1) -> [UInt8] {
        Array("btsnoop".utf8) + [0] + bigEndian(version) + bigEndian(datalink)
    }

    /// A record of `packet`: original and included length, flags, cumulative drops 0, then the time.
    static func record(
        _ packet: [UInt8],
        flags: UInt32,
        microseconds: Int64,
        originalLength: Int? = nil,
        includedLength: Int? = nil
    ) -> [UInt8] {
        bigEndian(UInt32(originalLength ?? packet.count)) + bigEndian(UInt32(includedLength ?? packet.count))
            + bigEndian(flags) + bigEndian(UInt32(0)) + bigEndian(UInt64(bitPattern: microseconds)) + packet
    }

    static func bigEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        stride(from: Value.bitWidth - 8, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// 2024-05-01T12:00:00.250Z in btsnoop's microseconds (1,714,564,800.25 s after 1970 plus 0x00DCDDB30F2F8000).
    static let mayDay: Int64 = 0x00E2_F516_490C_8090

    /// A real LE Meta event of one LE Advertising Report, as a controller sends it for an iBeacon, written out
    /// field by field.
    static let iBeaconEvent: [UInt8] = [
        0x3E,  // event code: LE Meta event
        0x2A,  // parameter length: 42
        0x02,  // subevent: LE Advertising Report
        0x01,  // num_reports: 1
        0x03,  // event type: ADV_NONCONN_IND (non-connectable, undirected)
        0x01,  // address type: random
        0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,  // address C1:22:33:44:55:66, least significant byte first
        0x1E,  // data length: 30
        0x02, 0x01, 0x06,  // AD: length 2, Flags, LE General Discoverable | BR/EDR not supported
        0x1A, 0xFF,  // AD: length 26, manufacturer specific data
        0x4C, 0x00,  // company: 0x004C, Apple, little-endian
        0x02, 0x15,  // iBeacon type 2, 21 bytes follow
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2,  // proximity UUID E2C56DB5-DFFB-48D2-
        0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,  // B060-D0F5A71096E0
        0x00, 0x01,  // major 1, big-endian
        0x00, 0x07,  // minor 7, big-endian
        0xC5,  // measured power: -59 dBm at 1 m
        0xBA,  // RSSI: -70 dBm
    ]

    /// What Apple's manufacturer data of ``iBeaconEvent`` holds after the company id.
    static let iBeaconFrame: [UInt8] =
        [0x02, 0x15, 0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        + [0x00, 0x01, 0x00, 0x07, 0xC5]

    /// A Command Complete event (not an advertising report): LE Set Scan Enable, status success.
    static let commandComplete: [UInt8] = [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
}
