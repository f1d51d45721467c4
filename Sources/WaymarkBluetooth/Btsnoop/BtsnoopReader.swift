import WaymarkCore

/// The LE advertising reports of a btsnoop capture: what BlueZ's `btmon -w FILE` writes (datalink 2001), or a
/// capture of HCI in datalink 1001 or 1002 (``BtsnoopDatalink``).
///
/// The file is a 16-byte header (`btsnoop\0`, version 1, the datalink, each number big-endian) and records, each
/// a 24-byte header (original length, included length, flags, cumulative drops: 32 bits each; the time: signed
/// 64 bits, microseconds since midnight, 1 January 0 AD: ``WaymarkCore/Timestamp/init(btsnoopMicroseconds:)``)
/// and its included bytes. The reports are taken from the HCI events that the host received: LE Advertising
/// Reports and LE Extended Advertising Reports (a chained extended advertisement's fragments are separate
/// reports, not reassembled). Every other record, a command, ACL data, another event or the monitor's notes, is
/// skipped and counted in ``otherRecordCount``.
///
/// A problem of the file's structure is thrown: a header too short or not btsnoop, an unknown version or
/// datalink, a record whose header or packet runs past the end of the file (a capture cut short: once the
/// records' lengths cannot be trusted, where the next record starts is a guess). A problem inside a record whose
/// length is sound (an included length above the original length, an HCI event or a report whose lengths
/// overrun the packet, a time out of range) skips that record only: it is counted in ``malformedRecordCount``,
/// the first ``maximumProblems`` of them kept in ``problems`` with their offsets, and reading goes on with the
/// next record. Reading is one pass, each record at least 24 bytes further on.
public struct BtsnoopReader: Sendable {
    /// At most this many of the skipped records' problems are kept in ``problems``.
    public static let maximumProblems = 100

    /// The capture, as named in problems.
    public var fileName: String
    public var datalink: BtsnoopDatalink
    /// The advertising reports, in the order of the file.
    public var reports: [AdvertisingReport] = []
    /// The records read, all kinds together.
    public var recordCount = 0
    /// Well-formed records that hold no advertising report, skipped.
    public var otherRecordCount = 0
    /// Records skipped for a problem of their own.
    public var malformedRecordCount = 0
    /// The problems of the first ``maximumProblems`` malformed records, in the order of the file; each has
    /// the code ``BtsnoopError/Code/malformedRecord``.
    public var problems: [BtsnoopError] = []

    private static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    private static let headerSize = 16
    private static let recordHeaderSize = 24

    /// Reads a whole capture.
    ///
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - fileName: how problems name the file: its path.
    /// - Throws: ``BtsnoopError``: ``BtsnoopError/Code/notBtsnoop``, ``BtsnoopError/Code/unsupportedVersion``,
    ///   ``BtsnoopError/Code/unsupportedDatalink``, ``BtsnoopError/Code/truncated``.
    public init(parsing bytes: [UInt8], fileName: String) throws(BtsnoopError) {
        self.fileName = fileName
        guard bytes.count >= Self.headerSize else {
            throw BtsnoopError(
                code: .notBtsnoop,
                file: fileName,
                offset: 0,
                message: "\(bytes.count) bytes: shorter than the 16-byte btsnoop header; not a btsnoop capture"
            )
        }
        guard bytes.starts(with: Self.magic) else {
            throw BtsnoopError(
                code: .notBtsnoop,
                file: fileName,
                offset: 0,
                message: "does not start with \"btsnoop\\0\": not a btsnoop capture (btmon -w writes one)"
            )
        }
        let version = bytes[8..<12].bigEndianValue
        guard version == 1 else {
            throw BtsnoopError(
                code: .unsupportedVersion,
                file: fileName,
                offset: 8,
                message: "btsnoop version \(version): only version 1 is read"
            )
        }
        let code = bytes[12..<16].bigEndianValue
        guard let datalink = BtsnoopDatalink(rawValue: UInt32(code)) else {
            throw BtsnoopError(
                code: .unsupportedDatalink,
                file: fileName,
                offset: 12,
                message: "datalink \(code): only 1001 (un-encapsulated HCI), 1002 (HCI UART, H4) and 2001 (Linux "
                    + "monitor, btmon -w) are read"
            )
        }
        self.datalink = datalink
        var offset = Self.headerSize
        while offset < bytes.count {
            offset = try readRecord(bytes, at: offset)
        }
    }

    /// Reads the record at `offset`; returns where the next one starts.
    private mutating func readRecord(_ bytes: [UInt8], at offset: Int) throws(BtsnoopError) -> Int {
        let number = recordCount
        guard bytes.count - offset >= Self.recordHeaderSize else {
            throw BtsnoopError(
                code: .truncated,
                file: fileName,
                offset: offset,
                message: "record \(number): the file ends \(bytes.count - offset) bytes into its 24-byte header: "
                    + "the capture was cut short"
            )
        }
        let originalLength = Int(bytes[offset..<(offset + 4)].bigEndianValue)
        let includedLength = Int(bytes[(offset + 4)..<(offset + 8)].bigEndianValue)
        let flags = UInt32(bytes[(offset + 8)..<(offset + 12)].bigEndianValue)
        let time = Int64(bitPattern: bytes[(offset + 16)..<(offset + 24)].bigEndianValue)
        let start = offset + Self.recordHeaderSize
        guard includedLength <= bytes.count - start else {
            throw BtsnoopError(
                code: .truncated,
                file: fileName,
                offset: offset + 4,
                message: "record \(number): its included length \(includedLength) runs past the end of the file "
                    + "(\(bytes.count - start) bytes left): the capture was cut short"
            )
        }
        recordCount += 1
        let packet = bytes[start..<(start + includedLength)]
        do throws(HCIAdvertisingEvent.Problem) {
            guard includedLength <= originalLength else {
                throw HCIAdvertisingEvent.Problem(
                    offset: offset + 4,
                    message: "its included length \(includedLength) is more than its original length "
                        + "\(originalLength)"
                )
            }
            guard let event = try hciEvent(packet, flags: flags),
                let found = try HCIAdvertisingEvent.reports(in: event)
            else {
                otherRecordCount += 1
                return start + includedLength
            }
            guard let timestamp = Timestamp(btsnoopMicroseconds: time) else {
                throw HCIAdvertisingEvent.Problem(
                    offset: offset + 16,
                    message: "its time \(time) µs is out of range (before 290,000 BC)"
                )
            }
            reports += found.map { report in
                AdvertisingReport(
                    time: timestamp,
                    address: Self.address(report.address),
                    rssi: report.rssi == 127 ? nil : Int(report.rssi),
                    data: report.data
                )
            }
        } catch {
            malformedRecordCount += 1
            if problems.count < Self.maximumProblems {
                let shortened =
                    includedLength < originalLength
                    ? "; the capture kept \(includedLength) of its \(originalLength) bytes" : ""
                problems.append(
                    BtsnoopError(
                        code: .malformedRecord,
                        file: fileName,
                        offset: error.offset,
                        message: "record \(number): \(error.message)\(shortened); the record is skipped"
                    )
                )
            }
        }
        return start + includedLength
    }

    /// The HCI event packet (event code, parameter length, parameters) a record holds; nil when it holds
    /// something else.
    private func hciEvent(
        _ packet: ArraySlice<UInt8>,
        flags: UInt32
    ) throws(HCIAdvertisingEvent.Problem) -> ArraySlice<UInt8>? {
        switch datalink {
        case .linuxMonitor:
            // The adapter index in the high 16 bits, the opcode in the low 16; 3 is an HCI event.
            return flags & 0xFFFF == 3 ? packet : nil
        case .hciUART:
            guard let type = packet.first else {
                throw HCIAdvertisingEvent.Problem(
                    offset: packet.startIndex,
                    message: "an empty packet: H4 packets start with their type byte"
                )
            }
            return type == 0x04 ? packet.dropFirst() : nil
        case .hciUnencapsulated:
            // Bit 1: command or event (not data); bit 0: received by the host. An event is both.
            return flags & 0b11 == 0b11 ? packet : nil
        }
    }

    /// `AA:BB:CC:DD:EE:FF` of 6 bytes least significant first, as HCI carries an address.
    static func address(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.reversed().map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + digits : digits
        }.joined(separator: ":")
    }
}
