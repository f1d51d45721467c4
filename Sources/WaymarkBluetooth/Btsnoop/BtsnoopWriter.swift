import WaymarkCore

/// Writes a btsnoop capture in the layout of BlueZ's `btmon -w FILE` (datalink 2001, Linux monitor), one HCI
/// LE Advertising Report event per ``AdvertisingReport``, as received on the adapter ``adapterIndex``.
///
/// What it writes is synthetic: made up by a test or a tool, not heard by a controller. Each record is an LE
/// Meta event of one legacy report, of event type `ADV_NONCONN_IND` (`0x03`) from a public address, that
/// ``BtsnoopReader`` and `btmon -r` read; the monitor's own records (the adapter's index, its notes) that a real
/// `btmon -w` capture begins with are not written.
public struct BtsnoopWriter: Sendable {
    /// The whole capture so far: the header, then one record per report appended.
    public private(set) var bytes: [UInt8]
    /// The adapter index the events are recorded on: 0 is `hci0`.
    public let adapterIndex: UInt16

    /// An empty capture: the 16-byte header only.
    public init(adapterIndex: UInt16 = 0) {
        self.adapterIndex = adapterIndex
        bytes = Array("btsnoop".utf8) + [0]
        Self.append(UInt32(1), to: &bytes)
        Self.append(BtsnoopDatalink.linuxMonitor.rawValue, to: &bytes)
    }

    /// Appends the record of `report`: an HCI event received at `report.time`.
    ///
    /// - Precondition: `report.address` is six pairs of hexadecimal digits separated by colons; `report.data`
    ///   holds at most 31 bytes (a legacy advertisement's most); `report.rssi` is nil or from -128 to 126 dBm;
    ///   `report.time` is within the years btsnoop's timestamps hold.
    public mutating func append(_ report: AdvertisingReport) {
        guard let address = Self.addressBytes(report.address) else {
            preconditionFailure("\(report.address): not a device address such as AA:BB:CC:DD:EE:FF")
        }
        precondition(report.data.count <= 31, "\(report.data.count) bytes of advertising data: at most 31")
        let rssi: Int8
        if let value = report.rssi {
            precondition((-128...126).contains(value), "RSSI \(value) dBm: must be from -128 to 126 (127 is none)")
            rssi = Int8(value)
        } else {
            rssi = 127
        }
        guard let time = report.time.btsnoopMicroseconds else {
            preconditionFailure("\(report.time): beyond the times a btsnoop capture holds")
        }
        // LE Advertising Report: subevent, num_reports, event type, address type, address, data length, data,
        // RSSI.
        var parameters: [UInt8] = [HCIAdvertisingEvent.advertisingReport, 1, 0x03, 0x00]
        parameters += address.reversed()
        parameters.append(UInt8(report.data.count))
        parameters += report.data
        parameters.append(UInt8(bitPattern: rssi))
        let event = [HCIAdvertisingEvent.leMetaEvent, UInt8(parameters.count)] + parameters
        Self.append(UInt32(event.count), to: &bytes)  // original length
        Self.append(UInt32(event.count), to: &bytes)  // included length
        Self.append(UInt32(adapterIndex) << 16 | 3, to: &bytes)  // flags: the adapter, opcode 3 (HCI event)
        Self.append(UInt32(0), to: &bytes)  // cumulative drops
        Self.append(UInt64(bitPattern: time), to: &bytes)
        bytes += event
    }

    /// The 6 bytes of `AA:BB:CC:DD:EE:FF`, most significant first; nil for any other text.
    static func addressBytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        for shift in stride(from: Value.bitWidth - 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
