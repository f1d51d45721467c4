import WaymarkCore

// fuzz-target: hci
// fuzz-seeds: Fuzz/Seeds/hci
// fuzz-dictionary: btsnoop.dict
@testable import WaymarkBluetooth

/// HCI event packets (what a controller reports, in a btsnoop capture): an LE advertising report event gives its
/// reports or names its problem; every report read lies within the packet; and the Apple data in a report goes
/// through the iBeacon reading the live source uses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let reports: [HCIAdvertisingEvent.Report]?
    do {
        reports = try HCIAdvertisingEvent.reports(in: input[...])
    } catch {
        require(error.offset >= 0 && error.offset <= input.count, "a problem at \(error.offset) of \(input.count)")
        return 0
    }
    for report in reports ?? [] {
        require(report.address.count == 6, "an address of \(report.address.count) bytes")
        require(report.data.count <= input.count, "a report longer than its packet")
        _ = BtsnoopReader.address(report.address)
        if let apple = AdvertisingData.manufacturerData(companyID: AdvertisingData.appleCompanyID, in: report.data) {
            _ = BeaconSourceEvent.advertisement(appleData: apple, rssi: report.rssi == 127 ? nil : Int(report.rssi))
        }
    }
    return 0
}
