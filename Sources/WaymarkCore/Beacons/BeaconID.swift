/// An iBeacon's identity (Core Location's `CLBeaconIdentityCondition` fully specified): its proximity UUID,
/// major and minor values.
public struct BeaconID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public static func < (lhs: BeaconID, rhs: BeaconID) -> Bool {
        (lhs.uuid, lhs.major, lhs.minor) < (rhs.uuid, rhs.major, rhs.minor)
    }

    /// `UUID:MAJOR:MINOR`, the form `waymark regions add --beacon` takes.
    public var description: String { "\(uuid):\(major):\(minor)" }
}

/// A 128-bit proximity UUID, written as Core Location's `UUIDString` writes it: upper-case hexadecimal in the
/// groups 8-4-4-4-12.
public struct BeaconUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 8 bytes, big-endian (as they go over the air).
    public var high: UInt64
    /// The last 8 bytes, big-endian.
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 16 bytes as they go over the air (most significant first); nil unless there are 16.
    public init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 {
                high = high << 8 | UInt64(byte)
            } else {
                low = low << 8 | UInt64(byte)
            }
        }
        self.init(high: high, low: low)
    }

    /// Reads `8-4-4-4-12` hexadecimal digits, upper or lower case; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for group in groups {
            var digits = group.utf8.makeIterator()
            while let first = digits.next(), let second = digits.next() {
                guard let high = Self.hexValue(first), let low = Self.hexValue(second) else { return nil }
                bytes.append(high << 4 | low)
            }
        }
        self.init(bytes: bytes)
    }

    public static func < (lhs: BeaconUUID, rhs: BeaconUUID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    public var description: String {
        let digits = Self.hex(high, count: 16) + Self.hex(low, count: 16)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(digit)
        }
        return text
    }

    private static func hex(_ value: UInt64, count: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: count - digits.count) + digits
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
