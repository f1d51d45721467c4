extension IBeaconFrame {
    /// The 23 bytes the board advertises as `beacon` (Apple's manufacturer data after the company id 0x004C):
    /// `02 15`, the UUID, major and minor big-endian, and `measuredPower`, the RSSI at 1 m as a signed byte.
    ///
    /// - Precondition: `measuredPower` is in ``validMeasuredPower``: a frame that ``parse(_:rssi:)`` refuses is
    ///   no beacon a reader could range. The configuration checks it first.
    public static func encode(_ beacon: BeaconID, measuredPower: Int) -> [UInt8] {
        precondition(validMeasuredPower.contains(measuredPower), "an iBeacon's measured power is -100...-1 dBm")
        var bytes: [UInt8] = [0x02, 0x15]
        bytes.reserveCapacity(23)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: beacon.uuid.high >> shift))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: beacon.uuid.low >> shift))
        }
        bytes += [
            UInt8(beacon.major >> 8), UInt8(beacon.major & 0xFF), UInt8(beacon.minor >> 8), UInt8(beacon.minor & 0xFF),
        ]
        bytes.append(UInt8(bitPattern: Int8(measuredPower)))
        return bytes
    }
}
