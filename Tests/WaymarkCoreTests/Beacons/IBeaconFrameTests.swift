import Testing
import WaymarkCore

@Suite struct IBeaconFrameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// The manufacturer data of company 0x004C, after the company id, as `btmon` prints it.
        var hex: String
        var rssi: Int
        var expected: Result<BeaconSighting, BeaconRejection>
        var testDescription: String
    }

    static let airLocate12 = BeaconTestValues.beacon(1, 2)

    @Test(arguments: [
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5",
            rssi: -67,
            expected: .success(BeaconSighting(beacon: airLocate12, measuredPower: -59, rssi: -67)),
            testDescription: "AirLocate 1:2 at -59 dBm"
        ),
        Case(
            hex: "02 15 B9 40 7F 30 F5 F8 46 6E AF F9 25 55 6B 57 FE 6D 4E 47 B6 0C B6",
            rssi: -127,
            expected: .success(
                BeaconSighting(
                    beacon: BeaconTestValues.beacon(20039, 46604, uuid: BeaconTestValues.estimote),
                    measuredPower: -74,
                    rssi: -127
                )
            ),
            testDescription: "Estimote, majors and minors above 32767 read unsigned, faintest RSSI"
        ),
        Case(
            hex: "02 15 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 FF FF 00 00 9C",
            rssi: 20,
            expected: .success(
                BeaconSighting(
                    beacon: BeaconID(uuid: BeaconUUID(high: 0, low: 1), major: 65535, minor: 0),
                    measuredPower: -100,
                    rssi: 20
                )
            ),
            testDescription: "lowest measured power accepted, strongest RSSI"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 FF",
            rssi: 0,
            expected: .success(BeaconSighting(beacon: airLocate12, measuredPower: -1, rssi: 0)),
            testDescription: "measured power -1 and RSSI 0 accepted"
        ),
        Case(
            hex: "12 19 10 D2 1E 3A 7B 4C 5E 60 11 22 33 44 55 66 77 88 99 AA BB CC DD 01 00",
            rssi: -60,
            expected: .failure(.notIBeacon),
            testDescription: "Find My (type 0x12)"
        ),
        Case(
            hex: "10 05 0B 1C 5C 6F 2A",
            rssi: -60,
            expected: .failure(.notIBeacon),
            testDescription: "Nearby Info (type 0x10)"
        ),
        Case(
            hex: "02 16 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5",
            rssi: -60,
            expected: .failure(.notIBeacon),
            testDescription: "type 02 with another length byte"
        ),
        Case(hex: "02", rssi: -60, expected: .failure(.notIBeacon), testDescription: "one byte"),
        Case(hex: "", rssi: -60, expected: .failure(.notIBeacon), testDescription: "no byte"),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02",
            rssi: -60,
            expected: .failure(.badLength),
            testDescription: "22 bytes: no measured power"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5 00",
            rssi: -60,
            expected: .failure(.badLength),
            testDescription: "24 bytes: a trailing byte"
        ),
        Case(hex: "02 15", rssi: 127, expected: .failure(.badLength), testDescription: "a header alone"),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 00",
            rssi: -60,
            expected: .failure(.badMeasuredPower),
            testDescription: "measured power 0: uncalibrated"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 7F",
            rssi: -60,
            expected: .failure(.badMeasuredPower),
            testDescription: "measured power +127"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 9B",
            rssi: 127,
            expected: .failure(.badMeasuredPower),
            testDescription: "measured power -101, checked before the RSSI"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 80",
            rssi: -60,
            expected: .failure(.badMeasuredPower),
            testDescription: "measured power -128"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5",
            rssi: 127,
            expected: .failure(.badRSSI),
            testDescription: "RSSI 127: HCI's not available"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5",
            rssi: 21,
            expected: .failure(.badRSSI),
            testDescription: "RSSI +21"
        ),
        Case(
            hex: "02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5",
            rssi: -128,
            expected: .failure(.badRSSI),
            testDescription: "RSSI -128"
        ),
    ])
    func parse(_ testCase: Case) {
        #expect(IBeaconFrame.parse(BeaconTestValues.bytes(testCase.hex), rssi: testCase.rssi) == testCase.expected)
    }

    @Test("a frame inside a larger buffer parses from a slice, as from an array")
    func slice() {
        let advertisement = BeaconTestValues.bytes(
            "4C 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5"
        )
        let parsed = IBeaconFrame.parse(advertisement.dropFirst(2), rssi: -70)
        #expect(parsed == .success(BeaconSighting(beacon: Self.airLocate12, measuredPower: -59, rssi: -70)))
        #expect(IBeaconFrame.parse(advertisement, rssi: -70) == .failure(.notIBeacon))
    }

    @Test("the rejection reasons are the stable metric labels")
    func reasons() {
        let reasons = [BeaconRejection.notIBeacon, .badLength, .badMeasuredPower, .badRSSI].map(\.description)
        #expect(reasons == ["not_ibeacon", "bad_length", "bad_measured_power", "bad_rssi"])
    }
}
