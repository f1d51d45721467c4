import WaymarkCore

/// Beacons and instants shared by the beacon suites.
enum BeaconTestValues {
    /// Apple's AirLocate sample UUID, the one most iBeacon demos and many fleet tags ship with.
    static let airLocate = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    /// Estimote's factory UUID.
    static let estimote = BeaconUUID("B9407F30-F5F8-466E-AFF9-25556B57FE6D")!

    /// `seconds` after an arbitrary origin of the monotonic clock (not zero, so that zero is never special).
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 7_000_000_000 + Int64((seconds * 1e9).rounded()))
    }

    static func beacon(_ major: UInt16, _ minor: UInt16, uuid: BeaconUUID = airLocate) -> BeaconID {
        BeaconID(uuid: uuid, major: major, minor: minor)
    }

    static func sighting(_ beacon: BeaconID, rssi: Int, measuredPower: Int = -59) -> BeaconSighting {
        BeaconSighting(beacon: beacon, measuredPower: measuredPower, rssi: rssi)
    }

    /// Reads hexadecimal bytes separated by spaces, as `btmon` prints them.
    static func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    /// `seconds` since ``at(_:)``'s origin, to the millisecond, for readable expectations.
    static func seconds(_ instant: MonotonicInstant) -> Double {
        Double((instant.nanoseconds - 7_000_000_000) / 1_000_000) / 1000
    }
}
