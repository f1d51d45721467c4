import Testing
import WaymarkBluetooth
import WaymarkCore

@Suite("AdvertisingData: manufacturer data from AD structures, and iBeacon advertisements")
struct AdvertisingDataTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var data: [UInt8]
        var company: UInt16
        var expected: [UInt8]?
        var testDescription: String
    }

    static let cases: [Case] = [
        Case(data: [], company: 0x004C, expected: nil, testDescription: "no data"),
        Case(
            data: [0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C, 0x00, 0xAB, 0xCD],
            company: 0x004C,
            expected: [0xAB, 0xCD],
            testDescription: "after a Flags structure"
        ),
        Case(
            data: [0x05, 0xFF, 0x59, 0x00, 0x01, 0x02, 0x04, 0xFF, 0x4C, 0x00, 0x09],
            company: 0x004C,
            expected: [0x09],
            testDescription: "the second manufacturer's, the first being Nordic's (0x0059)"
        ),
        Case(
            data: [0x05, 0xFF, 0x59, 0x00, 0x01, 0x02],
            company: 0x004C,
            expected: nil,
            testDescription: "only another company's"
        ),
        Case(
            data: [0x03, 0xFF, 0x4C, 0x00],
            company: 0x004C,
            expected: [],
            testDescription: "a company id and nothing after it"
        ),
        Case(
            data: [0x02, 0xFF, 0x4C, 0x04, 0xFF, 0x4C, 0x00, 0x07],
            company: 0x004C,
            expected: [0x07],
            testDescription: "a structure too short for a company id is passed over"
        ),
        Case(
            data: [0x02, 0x01, 0x06, 0x00, 0x04, 0xFF, 0x4C, 0x00, 0x07],
            company: 0x004C,
            expected: nil,
            testDescription: "a zero length ends the significant part"
        ),
        Case(
            data: [0x02, 0x01, 0x06, 0x09, 0xFF, 0x4C, 0x00, 0x07],
            company: 0x004C,
            expected: nil,
            testDescription: "a length that runs past the end is not read"
        ),
        Case(
            data: [0x02, 0x01],
            company: 0x004C,
            expected: nil,
            testDescription: "a structure cut after its type"
        ),
        Case(
            data: [0x03, 0x09, 0x4C, 0x00, 0x04, 0xFF, 0x34, 0x12, 0xEE],
            company: 0x1234,
            expected: [0xEE],
            testDescription: "the company id is little-endian, and a name holding 4C 00 is not it"
        ),
    ]

    @Test("finds the first structure of the company, never reading past the data", arguments: cases)
    func manufacturerData(_ example: Case) {
        #expect(AdvertisingData.manufacturerData(companyID: example.company, in: example.data) == example.expected)
    }

    @Test("every prefix and every byte value of an advertisement is walked without a trap")
    func robust() {
        let data = AdvertisingData.iBeacon(
            BeaconID(uuid: BeaconUUID(high: 1, low: 2), major: 3, minor: 4),
            measuredPower: -59
        )
        for length in 0...data.count {
            let found = AdvertisingData.manufacturerData(companyID: 0x004C, in: Array(data.prefix(length)))
            #expect((found != nil) == (length == data.count), "\(length) bytes")
        }
        for index in data.indices {
            for value in UInt8.min...UInt8.max {
                var changed = data
                changed[index] = value
                _ = AdvertisingData.manufacturerData(companyID: 0x004C, in: changed)
            }
        }
    }

    @Test("an iBeacon advertisement: Flags, then Apple's 02 15 frame with the UUID, major, minor and power")
    func iBeacon() throws {
        let uuid = try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let data = AdvertisingData.iBeacon(BeaconID(uuid: uuid, major: 1, minor: 7), measuredPower: -59)
        #expect(data == Array(BtsnoopBytes.iBeaconEvent[13..<43]))
        #expect(AdvertisingData.manufacturerData(companyID: 0x004C, in: data) == BtsnoopBytes.iBeaconFrame)
        let other = AdvertisingData.iBeacon(
            BeaconID(uuid: BeaconUUID(high: .max, low: 0x0102_0304_0506_0708), major: 0xABCD, minor: 0xFFFF),
            measuredPower: -128
        )
        #expect(other.count == 30)
        #expect(
            Array(other[9..<30]) == [UInt8](repeating: 0xFF, count: 8) + Array(1...8) + [0xAB, 0xCD, 0xFF, 0xFF, 0x80]
        )
    }
}
