import WaymarkCore

/// One Bluetooth LE advertisement as the controller reported it (an HCI LE Advertising Report, legacy or
/// extended): when, from whom, how loud, and its advertising data.
public struct AdvertisingReport: Hashable, Sendable {
    /// When the capture recorded the HCI event (the host's clock as the capture tool read it, UTC).
    public var time: Timestamp
    /// The advertiser's device address as BlueZ writes it: `AA:BB:CC:DD:EE:FF`, upper case, most significant
    /// byte first.
    public var address: String
    /// The received signal strength, dBm; nil when the controller said it is not available (127).
    public var rssi: Int?
    /// The advertising data: AD structures, `[length][type][payload]` (``AdvertisingData``).
    public var data: [UInt8]

    public init(time: Timestamp, address: String, rssi: Int?, data: [UInt8]) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.data = data
    }
}
