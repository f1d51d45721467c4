/// Reads Apple's iBeacon advertisement.
///
/// The frame is the manufacturer-specific data of company id `0x004C` (Apple), after the 2-byte company id (what
/// BlueZ gives in `ManufacturerData[0x004C]`), 23 bytes:
///
/// | bytes | value |
/// |---|---|
/// | 0 | `0x02`, the iBeacon type |
/// | 1 | `0x15`, the length of what follows (21) |
/// | 2...17 | the proximity UUID, most significant byte first |
/// | 18...19 | major, big-endian |
/// | 20...21 | minor, big-endian |
/// | 22 | measured power: the RSSI at 1 m, dBm, a signed byte |
public enum IBeaconFrame {
    /// The measured powers accepted, dBm at 1 m. Real beacons are calibrated between about -50 and -90 dBm;
    /// 0 and positive values are uncalibrated beacons, and a beacon fainter than -100 dBm at 1 m could not be
    /// heard at 2 m.
    public static let validMeasuredPower = -100...(-1)
    /// The RSSIs accepted, dBm: what HCI can report (-127 to +20 dBm). 127, HCI's "not available", is not in it.
    public static let validRSSI = -127...20

    /// Reads one advertisement heard at `rssi` dBm.
    ///
    /// The checks go in this order, and the first that fails is the reason: the `02 15` header
    /// (``BeaconRejection/notIBeacon``), the length of 23 bytes (``BeaconRejection/badLength``), the measured
    /// power (``BeaconRejection/badMeasuredPower``), the RSSI (``BeaconRejection/badRSSI``).
    public static func parse(
        _ manufacturerData: some Collection<UInt8>,
        rssi: Int
    ) -> Result<BeaconSighting, BeaconRejection> {
        var bytes = manufacturerData.makeIterator()
        guard bytes.next() == 0x02, bytes.next() == 0x15 else { return .failure(.notIBeacon) }
        guard manufacturerData.count == 23 else { return .failure(.badLength) }
        // The length is checked: every byte is there.
        func next() -> UInt8 { bytes.next() ?? 0 }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for _ in 0..<8 { high = high << 8 | UInt64(next()) }
        for _ in 0..<8 { low = low << 8 | UInt64(next()) }
        let major = UInt16(next()) << 8 | UInt16(next())
        let minor = UInt16(next()) << 8 | UInt16(next())
        let measuredPower = Int(Int8(bitPattern: next()))
        guard validMeasuredPower.contains(measuredPower) else { return .failure(.badMeasuredPower) }
        guard validRSSI.contains(rssi) else { return .failure(.badRSSI) }
        let beacon = BeaconID(uuid: BeaconUUID(high: high, low: low), major: major, minor: minor)
        return .success(BeaconSighting(beacon: beacon, measuredPower: measuredPower, rssi: rssi))
    }
}
