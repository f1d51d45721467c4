// fuzz-target: ibeacon
// fuzz-seeds: Fuzz/Seeds/ibeacon
import WaymarkBluetooth
import WaymarkCore

/// iBeacon frames (advertising data heard from the street, BlueZ's `ManufacturerData`): the input's first byte is
/// the RSSI, the rest the advertising data. A sighting read is written back as a beacon advertises it and must
/// read the same; a frame refused says why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIBeacon(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let first = input.first else { return 0 }
    let rssi = Int(Int8(bitPattern: first))
    let advertising = Array(input.dropFirst())
    // BlueZ hands the bytes after the company id directly, a capture the whole advertising data: both are read.
    for apple in [
        AdvertisingData.manufacturerData(companyID: AdvertisingData.appleCompanyID, in: advertising),
        advertising,
    ] {
        guard let apple else { continue }
        guard case .sighting(let sighting) = BeaconSourceEvent.advertisement(appleData: apple, rssi: rssi) else {
            continue
        }
        require(IBeaconFrame.validRSSI.contains(sighting.rssi), "a sighting at \(sighting.rssi) dBm")
        let written = AdvertisingData.iBeacon(sighting.beacon, measuredPower: Int8(sighting.measuredPower))
        let reread = AdvertisingData.manufacturerData(companyID: AdvertisingData.appleCompanyID, in: written)
        guard let reread, case .success(let again) = IBeaconFrame.parse(reread, rssi: sighting.rssi) else {
            fatalError("a sighting written as an advertisement does not read back: \(sighting)")
        }
        require(again == sighting, "read back, the sighting differs: \(sighting) then \(again)")
    }
    return 0
}
