import WaymarkCore

/// Reads and builds Bluetooth LE advertising data: a sequence of AD structures, each `[length][type][payload]`
/// where `length` counts the type byte and the payload (Core Specification, Vol 3, Part C, 11).
public enum AdvertisingData {
    /// The AD type of manufacturer-specific data: a 2-byte company identifier, little-endian, then the company's
    /// own bytes.
    public static let manufacturerSpecificType: UInt8 = 0xFF
    /// Apple's company identifier, which iBeacon advertisements carry.
    public static let appleCompanyID: UInt16 = 0x004C

    /// The bytes after the company identifier of the first manufacturer-specific AD structure of `companyID` in
    /// `data`; nil when there is none.
    ///
    /// Never reads past `data`: a structure of length 0 ends the significant part (what follows is padding), and
    /// a structure whose length runs past the end ends the walk without being read.
    public static func manufacturerData(companyID: UInt16, in data: [UInt8]) -> [UInt8]? {
        var offset = 0
        while offset < data.count {
            let length = Int(data[offset])
            guard length > 0, offset + 1 + length <= data.count else { return nil }
            let type = data[offset + 1]
            let payload = (offset + 2)..<(offset + 1 + length)
            if type == manufacturerSpecificType, payload.count >= 2 {
                let company = UInt16(data[payload.lowerBound]) | UInt16(data[payload.lowerBound + 1]) << 8
                if company == companyID { return Array(data[(payload.lowerBound + 2)..<payload.upperBound]) }
            }
            offset = payload.upperBound
        }
        return nil
    }

    /// The advertising data of an iBeacon: the Flags structure (`02 01 06`: LE General Discoverable, BR/EDR not
    /// supported) then Apple's manufacturer-specific data (`1A FF 4C 00 02 15`, the proximity UUID, major and
    /// minor big-endian, the measured power): 30 bytes, as beacons send it.
    ///
    /// - Parameter measuredPower: the RSSI at 1 m the beacon announces, dBm (typically -50 to -90).
    public static func iBeacon(_ beacon: BeaconID, measuredPower: Int8) -> [UInt8] {
        var data: [UInt8] = [0x02, 0x01, 0x06, 0x1A, manufacturerSpecificType, 0x4C, 0x00, 0x02, 0x15]
        for shift in stride(from: 56, through: 0, by: -8) {
            data.append(UInt8(truncatingIfNeeded: beacon.uuid.high >> shift))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            data.append(UInt8(truncatingIfNeeded: beacon.uuid.low >> shift))
        }
        data += [UInt8(beacon.major >> 8), UInt8(truncatingIfNeeded: beacon.major)]
        data += [UInt8(beacon.minor >> 8), UInt8(truncatingIfNeeded: beacon.minor)]
        data.append(UInt8(bitPattern: measuredPower))
        return data
    }
}
