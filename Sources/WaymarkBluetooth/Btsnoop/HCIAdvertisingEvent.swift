/// Finds the LE advertising reports in an HCI event packet: event code (1 byte), parameter length (1), then
/// the parameters.
///
/// LE Meta events (code `0x3E`) of subevent `0x02` (LE Advertising Report) and `0x0D` (LE Extended Advertising
/// Report) hold reports; every other event holds none. Reports are read one after the other, each whole, as the
/// Linux kernel and btmon read them (the Core Specification lays the legacy report out field by field across all
/// reports, but controllers send one report per event, where the two agree).
enum HCIAdvertisingEvent {
    /// One report as the event has it, before it is dated.
    struct Report: Hashable {
        /// The 6 address bytes, least significant first.
        var address: ArraySlice<UInt8>
        /// The signed byte; 127 for not available.
        var rssi: Int8
        var data: [UInt8]
    }

    /// What is wrong with an event: where and what.
    struct Problem: Error {
        var offset: Int
        var message: String
    }

    static let leMetaEvent: UInt8 = 0x3E
    static let advertisingReport: UInt8 = 0x02
    static let extendedAdvertisingReport: UInt8 = 0x0D

    /// The reports of `event`, a whole HCI event packet; nil when it is not an advertising report event.
    static func reports(in event: ArraySlice<UInt8>) throws(Problem) -> [Report]? {
        var cursor = ByteCursor(event)
        guard let code = cursor.byte(), code == leMetaEvent else { return nil }
        guard let length = cursor.byte() else {
            throw Problem(offset: event.startIndex, message: "an LE Meta event of 1 byte: its header is 2 bytes")
        }
        guard let parameters = cursor.take(Int(length)) else {
            throw Problem(
                offset: event.startIndex + 1,
                message: "LE Meta event: its parameter length \(length) runs past the end of the packet "
                    + "(\(cursor.remaining) bytes left)"
            )
        }
        var reader = ByteCursor(parameters)
        switch reader.byte() {
        case advertisingReport?: return try legacyReports(&reader)
        case extendedAdvertisingReport?: return try extendedReports(&reader)
        case nil: throw Problem(offset: parameters.startIndex, message: "LE Meta event without a subevent code")
        default: return nil
        }
    }

    /// LE Advertising Report: num_reports (1), then each report: event type (1), address type (1), address (6),
    /// data length (1), data, RSSI (1).
    private static func legacyReports(_ reader: inout ByteCursor) throws(Problem) -> [Report] {
        let name = "LE Advertising Report"
        let count = try reportCount(&reader, name)
        var reports: [Report] = []
        for number in stride(from: 1, through: count, by: 1) {
            let context = (name: name, number: number, count: count)
            let fixed = try take(9, "the part up to its data length", context, &reader)
            let length = Int(fixed[fixed.startIndex + 8])
            let rest = try take(length + 1, "its data (length \(length)) with the RSSI after it", context, &reader)
            let address = fixed[(fixed.startIndex + 2)..<(fixed.startIndex + 8)]
            let rssi = Int8(bitPattern: rest[rest.endIndex - 1])
            reports.append(Report(address: address, rssi: rssi, data: Array(rest.dropLast())))
        }
        return reports
    }

    /// LE Extended Advertising Report: num_reports (1), then each report: event type (2), address type (1),
    /// address (6), primary PHY (1), secondary PHY (1), advertising SID (1), TX power (1), RSSI (1), periodic
    /// advertising interval (2), direct address type (1), direct address (6), data length (1), data.
    private static func extendedReports(_ reader: inout ByteCursor) throws(Problem) -> [Report] {
        let name = "LE Extended Advertising Report"
        let count = try reportCount(&reader, name)
        var reports: [Report] = []
        for number in stride(from: 1, through: count, by: 1) {
            let context = (name: name, number: number, count: count)
            let fixed = try take(24, "the part up to its data length", context, &reader)
            let length = Int(fixed[fixed.startIndex + 23])
            let data = try take(length, "its data (length \(length))", context, &reader)
            let address = fixed[(fixed.startIndex + 3)..<(fixed.startIndex + 9)]
            let rssi = Int8(bitPattern: fixed[fixed.startIndex + 13])
            reports.append(Report(address: address, rssi: rssi, data: Array(data)))
        }
        return reports
    }

    private static func reportCount(_ reader: inout ByteCursor, _ name: String) throws(Problem) -> Int {
        guard let count = reader.byte() else {
            throw Problem(offset: reader.position, message: "\(name) without its number of reports")
        }
        return Int(count)
    }

    /// The next `count` bytes of report `number`; a problem naming `what` needs them when the event ends first.
    private static func take(
        _ count: Int,
        _ what: String,
        _ report: (name: String, number: Int, count: Int),
        _ reader: inout ByteCursor
    ) throws(Problem) -> ArraySlice<UInt8> {
        let offset = reader.position
        let left = reader.remaining
        guard let bytes = reader.take(count) else {
            throw Problem(
                offset: offset,
                message: "\(report.name), report \(report.number) of \(report.count): \(what) needs \(count) "
                    + "bytes, but the event has \(left) left"
            )
        }
        return bytes
    }
}
