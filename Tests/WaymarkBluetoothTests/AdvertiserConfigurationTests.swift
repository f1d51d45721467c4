import Testing
import WaymarkBluetooth
import WaymarkCore

/// Review of issue 41, finding 14: a measured power no reader could range is refused by the configuration's `init`
/// (it trapped the process in the frame's encoder before).
@Suite struct AdvertiserConfigurationTests {
    static let beacon = BeaconID(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)

    @Test(arguments: [(-100, true), (-59, true), (-1, true), (0, false), (-101, false), (20, false), (-128, false)])
    func measuredPower(_ value: Int, _ accepted: Bool) {
        do {
            let configuration = try AdvertiserConfiguration(beacon: Self.beacon, measuredPower: value)
            #expect(accepted, "\(value) dBm accepted")
            #expect(configuration.measuredPower == value)
        } catch {
            #expect(!accepted, "\(value) dBm refused: \(error)")
            #expect(error.description.hasPrefix("measured power \(value) dBm: an iBeacon's is -100...-1 dBm"))
        }
    }
}
