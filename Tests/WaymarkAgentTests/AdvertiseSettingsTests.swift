import Testing
import WaymarkCore

@testable import WaymarkAgent

/// `[beacons.advertise]`: its keys, its defaults, what the advertiser gets, and one line per problem.
@Suite struct AdvertiseSettingsTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func offByDefaultAndNothingToAdvertise() throws {
        let beacons = try Configuration.parse("", fileName: "waymark.toml").beacons
        #expect(!beacons.advertise.enabled)
        #expect(beacons.advertise.advertiser(beacons) == nil)
    }

    @Test func aBoardAdvertisesOnTheBusAndAdapterOfBeacons() throws {
        let text = """
            [beacons]
            adapter = "hci1"
            bus = "unix:path=/run/test.sock"
            [beacons.advertise]
            enabled = true
            uuid = "\(Self.uuid.lowercased())"
            major = 12
            minor = 3407
            measured_power = -61
            interval = "0s"
            when = "regions"
            regions = ["depot", "gate", "depot"]
            """
        let beacons = try Configuration.parse(text, fileName: "waymark.toml").beacons
        let advertiser = try #require(beacons.advertise.advertiser(beacons))
        #expect(advertiser.beacon == BeaconID(uuid: BeaconUUID(Self.uuid)!, major: 12, minor: 3407))
        #expect(advertiser.measuredPower == -61)
        #expect(advertiser.interval == nil)
        #expect(advertiser.adapter == "hci1" && advertiser.busAddress == "unix:path=/run/test.sock")
        #expect(beacons.advertise.rule == .insideRegions(["depot", "gate"]))
        #expect(!beacons.enabled, "advertising needs no scanning")
    }

    @Test(arguments: [
        (
            "[beacons.advertise]\nenabled = true\n",
            "waymark.toml:2: [beacons.advertise] uuid: missing: an advertising board needs its fleet's UUID"
        ),
        (
            "[beacons.advertise]\nuuid = \"E2C56DB5\"\n",
            "waymark.toml:2: [beacons.advertise] uuid = \"E2C56DB5\": must be a proximity UUID such as "
                + "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
        ),
        (
            "[beacons.advertise]\ninterval = \"10ms\"\n",
            "waymark.toml:2: [beacons.advertise] interval = \"10ms\": must be from \"20ms\" to \"10240ms\" "
                + "(a legacy advertisement's longest), or \"0s\" to leave it to BlueZ"
        ),
        (
            "[beacons.advertise]\nmeasured_power = 0\n",
            "waymark.toml:2: [beacons.advertise] measured_power = 0: must be an integer from -100 to -1"
        ),
        (
            "[beacons.advertise]\nminor = 65536\n",
            "waymark.toml:2: [beacons.advertise] minor = 65536: must be an integer from 0 to 65535"
        ),
        (
            "[beacons.advertise]\nenabled = true\nuuid = \"\(uuid)\"\nwhen = \"regions\"\n",
            "waymark.toml:4: [beacons.advertise] regions: missing: when = \"regions\" needs the regions' ids"
        ),
        (
            "[beacons.advertise]\nwhen = \"parked\"\n",
            "waymark.toml:2: [beacons.advertise] when = \"parked\": must be \"always\" or \"moving\" or \"paused\" "
                + "or \"regions\""
        ),
    ])
    func aProblemIsOneLineNamingItsKey(text: String, expected: String) {
        #expect(configurationProblem(text) == expected)
    }
}
