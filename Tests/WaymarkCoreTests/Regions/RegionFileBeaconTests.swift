import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite("RegionFile: beacon regions, features with \"geometry\": null")
struct RegionFileBeaconTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let beaconUUID = BeaconUUID(uuid)!

    /// A feature with these properties and `"geometry": null`.
    static func beacon(_ properties: String, geometry: String = "null") -> String {
        #"{"type": "Feature", "properties": {\#(properties)}, "geometry": \#(geometry)}"#
    }

    /// A good beacon feature and the region it must give.
    struct Good: Sendable, CustomTestStringConvertible {
        var feature: String
        var region: BeaconRegion
        var testDescription: String

        static let all: [Good] = [
            Good(
                feature: beacon(#""id": "b", "beacon": {"uuid": "\#(uuid)"}"#),
                region: BeaconRegion(id: "b", constraint: BeaconConstraint(uuid: beaconUUID)),
                testDescription: "a UUID alone: every beacon of the fleet"
            ),
            Good(
                feature: beacon(#""id": "b", "beacon": {"uuid": "\#(uuid)", "major": 65535}"#),
                region: BeaconRegion(id: "b", constraint: BeaconConstraint(uuid: beaconUUID, major: 65_535)),
                testDescription: "a UUID and the largest major"
            ),
            Good(
                feature: beacon(
                    #""id": "b", "name": "Trailer 7", "beacon": {"minor": 0, "major": 1, "uuid": "\#(uuid)"}, "#
                        + #""ranging": true, "notify_on_entry": false"#
                ),
                region: BeaconRegion(
                    id: "b",
                    name: "Trailer 7",
                    constraint: BeaconConstraint(uuid: beaconUUID, major: 1, minor: 0),
                    notifyOnEntry: false,
                    ranging: true
                ),
                testDescription: "all three in any order, a name, ranging and a flag"
            ),
            Good(
                feature: beacon(
                    #""id": 7, "beacon": {"uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 3, "#
                        + #""minor": null}, "ranging": false, "notify_on_exit": false"#
                ),
                region: BeaconRegion(
                    id: "7",
                    constraint: BeaconConstraint(uuid: beaconUUID, major: 3),
                    notifyOnExit: false,
                    ranging: false
                ),
                testDescription: "a lower-case UUID, an integer id, a null minor, ranging false"
            ),
            Good(
                feature: #"{"geometry": null, "id": "own", "type": "Feature", "properties": {"ranging": null, "#
                    + #""beacon": {"uuid": "\#(uuid)", "major": null, "colour": null}}}"#,
                region: BeaconRegion(id: "own", constraint: BeaconConstraint(uuid: beaconUUID)),
                testDescription: "the geometry first, the Feature's id, nulls counted as absent"
            ),
        ]
    }

    @Test("a beacon feature is a BeaconRegion, next to the geographic regions", arguments: Good.all)
    func good(_ good: Good) throws {
        let file = RegionFileTests.parse(
            RegionFileTests.collection([RegionFileTests.circle("c"), good.feature, RegionFileTests.square("s")])
        )
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.beaconRegions == [good.region])
        #expect(try file.checkedRegions().map(\.id) == ["c", "s"])
        #expect(try file.checkedEntries().map(\.id) == ["c", good.region.id, "s"])
        #expect(file.features[1].beaconRegion == good.region)
        #expect(file.features[1].region == nil && file.features[1].vertexCount == 0)
        #expect(file.features[1].entry == .beacon(good.region))
    }

    /// A bad beacon feature and the one problem it must give.
    struct Bad: Sendable, CustomTestStringConvertible {
        var feature: String
        var code: RegionFileProblem.Code
        var member: String?
        var value: String?
        var message: String
        var testDescription: String { "\(member ?? "-") \(value ?? "") \(message)" }

        init(_ feature: String, _ code: RegionFileProblem.Code, _ member: String?, _ value: String?, _ message: String)
        {
            self.feature = feature
            self.code = code
            self.member = member
            self.value = value
            self.message = message
        }

        static let form = #"{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 7}"#
        static let uuidDigits =
            #"must be 8-4-4-4-12 hexadecimal digits, such as "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0""#
        static let value = "must be an integer from 0 to 65535"

        static func beaconWith(_ members: String) -> String { beacon(#""id": "x", "beacon": {\#(members)}"#) }

        static let all: [Bad] = [
            Bad(
                beacon(#""id": "x", "beacon": "\#(uuid):1:7""#),
                .invalidBeacon,
                "properties.beacon",
                "\"\(uuid):1:7\"",
                "must be an object such as \(form) (major and minor optional)"
            ),
            Bad(
                beacon(#""id": "x", "beacon": {}"#),
                .invalidBeacon,
                "properties.beacon.uuid",
                nil,
                "missing: the proximity UUID of the region's beacons, 8-4-4-4-12 hexadecimal digits"
            ),
            Bad(
                beaconWith(#""uuid": null, "major": 1"#),
                .invalidBeacon,
                "properties.beacon.uuid",
                nil,
                "missing: the proximity UUID of the region's beacons, 8-4-4-4-12 hexadecimal digits"
            ),
            Bad(
                beaconWith(#""uuid": 12"#),
                .invalidBeacon,
                "properties.beacon.uuid",
                "12",
                "must be a string of 8-4-4-4-12 hexadecimal digits"
            ),
            Bad(
                beaconWith(#""uuid": "E2C56DB5DFFB48D2B060D0F5A71096E0""#),
                .invalidBeacon,
                "properties.beacon.uuid",
                "\"E2C56DB5DFFB48D2B060D0F5A71096E0\"",
                uuidDigits
            ),
            Bad(
                beaconWith(#""uuid": "G2C56DB5-DFFB-48D2-B060-D0F5A71096E0""#),
                .invalidBeacon,
                "properties.beacon.uuid",
                "\"G2C56DB5-DFFB-48D2-B060-D0F5A71096E0\"",
                uuidDigits
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": -1"#),
                .invalidBeacon,
                "properties.beacon.major",
                "-1",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": 65536"#),
                .invalidBeacon,
                "properties.beacon.major",
                "65536",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": 1.5"#),
                .invalidBeacon,
                "properties.beacon.major",
                "1.5",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": 1e2"#),
                .invalidBeacon,
                "properties.beacon.major",
                "1e2",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": -0"#),
                .invalidBeacon,
                "properties.beacon.major",
                "-0",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": "1""#),
                .invalidBeacon,
                "properties.beacon.major",
                "\"1\"",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": 1, "minor": true"#),
                .invalidBeacon,
                "properties.beacon.minor",
                "true",
                value
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "minor": 7"#),
                .invalidBeacon,
                "properties.beacon.minor",
                "7",
                "needs a major: a beacon region is a UUID, or a UUID and a major, or all three"
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "mayor": 1"#),
                .invalidBeacon,
                "properties.beacon.mayor",
                nil,
                "not a member of a beacon, which has uuid, major and minor: a misspelt one would match more beacons "
                    + "than meant"
            ),
            Bad(
                beaconWith(#""uuid": "\#(uuid)", "major": 1, "major": 2"#),
                .duplicateKey,
                "properties.beacon.major",
                nil,
                #"duplicate key "major" in the beacon of feature 1, line 3 (first given at line 3); give each key once"#
            ),
            Bad(
                beacon(
                    #""id": "x", "radius": 5, "beacon": {"uuid": "\#(uuid)"}"#,
                    geometry: #"{"type": "Point", "coordinates": [1, 2]}"#
                ),
                .invalidBeacon,
                "properties.beacon",
                nil,
                "only a feature with \"geometry\": null is a beacon region; a region is an area or a beacon, not both"
            ),
            Bad(
                #"{"type": "Feature", "properties": {"id": "x", "beacon": {"uuid": "\#(uuid)"}}}"#,
                .malformedFeature,
                "geometry",
                nil,
                "missing: a beacon region has \"geometry\": null"
            ),
            Bad(
                beacon(#""id": "x", "radius": 5, "beacon": {"uuid": "\#(uuid)"}"#),
                .invalidRadius,
                "properties.radius",
                "5",
                "a beacon region has no radius: it is wherever its beacons are heard"
            ),
            Bad(
                beacon(#""id": "x", "speed_limit": 30, "beacon": {"uuid": "\#(uuid)"}"#),
                .invalidProperty,
                "properties.speed_limit",
                "30",
                "a beacon region has no speed limit: it has no place for one; give the area around it as a region"
            ),
            Bad(
                beacon(
                    #""id": "x", "radius": 5, "ranging": true"#,
                    geometry: #"{"type": "Point", "coordinates": [1, 2]}"#
                ),
                .invalidBeacon,
                "properties.ranging",
                "true",
                "only a beacon region (\"geometry\": null, with properties.beacon) is ranged"
            ),
            Bad(
                beacon(#""id": "x", "ranging": "yes", "beacon": {"uuid": "\#(uuid)"}"#),
                .invalidProperty,
                "properties.ranging",
                "\"yes\"",
                "must be true or false"
            ),
            Bad(
                beacon(#""beacon": {"uuid": "\#(uuid)"}"#),
                .missingID,
                "properties.id",
                nil,
                "missing: each region needs an id, unique in the file"
            ),
        ]
    }

    @Test("a bad beacon feature is one problem naming the feature, the member, the value and why", arguments: Bad.all)
    func bad(_ bad: Bad) throws {
        let file = RegionFileTests.parse(
            RegionFileTests.collection([RegionFileTests.circle("good"), bad.feature, RegionFileTests.circle("after")])
        )
        #expect(file.regions.map(\.id) == ["good", "after"])
        #expect(file.beaconRegions.isEmpty)
        #expect(file.features[1].beaconRegion == nil && file.features[1].region == nil)
        let problem = try #require(file.problems.first)
        #expect(file.problems.count == 1, "\(file.problems)")
        #expect(problem.code == bad.code)
        #expect(problem.featureIndex == 1)
        #expect(problem.position.line == 3)
        #expect(problem.member == bad.member)
        #expect(problem.value == bad.value)
        #expect(problem.message == bad.message)
        #expect(throws: RegionFileError(problems: [problem])) { try file.checkedEntries() }
    }

    @Test("a problem's line gives the position of the offending value")
    func position() {
        let text = RegionFileTests.collection([
            Self.beacon(#""id": "t", "beacon": {"uuid": "\#(Self.uuid)", "major": 70000}"#)
        ])
        #expect(
            RegionFileTests.parse(text).problems.map(\.description) == [
                #"regions.geojson:2:115: features[0] (id "t"): properties.beacon.major = 70000: "#
                    + "must be an integer from 0 to 65535"
            ]
        )
    }

    @Test("ids are unique across areas and beacon regions")
    func uniqueIDs() {
        let text = RegionFileTests.collection([
            RegionFileTests.circle("depot"),
            Self.beacon(#""id": "depot", "beacon": {"uuid": "\#(Self.uuid)"}"#),
            Self.beacon(#""id": "t", "beacon": {"uuid": "\#(Self.uuid)"}"#),
            RegionFileTests.square("t"),
        ])
        let file = RegionFileTests.parse(text)
        #expect(file.problems.map(\.code) == [.duplicateID, .duplicateID])
        #expect(file.problems.map(\.featureIndex) == [1, 3])
        #expect(file.regions.map(\.id) == ["depot"])
        #expect(file.beaconRegions.map(\.id) == ["t"])
    }

    @Test("encoding writes beacon regions back in place, one line each, and parsing gives them back equal")
    func encoding() throws {
        let entries: [RegionFile.Entry] = [
            .beacon(
                BeaconRegion(
                    id: "trailer \"7\"",
                    name: "Trailer\n7",
                    constraint: BeaconConstraint(uuid: Self.beaconUUID, major: 1, minor: 7),
                    notifyOnExit: false,
                    ranging: true
                )
            ),
            .geographic(
                Region(
                    id: "depot",
                    shape: .circle(center: Coordinate(latitude: 49.0117, longitude: 12.0997), radius: 150)
                )
            ),
            .beacon(BeaconRegion(id: "fleet", constraint: BeaconConstraint(uuid: BeaconUUID(high: 0, low: 0xAB)))),
            .beacon(
                BeaconRegion(id: "dock", constraint: BeaconConstraint(uuid: Self.beaconUUID, major: 0), ranging: false)
            ),
        ]
        let text = RegionFile.encode(entries: entries)
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines[3] == #"    {"type": "Feature", "properties": {"id": "trailer \"7\"", "name": "Trailer\n7", "#
                + #""notify_on_entry": true, "notify_on_exit": false, "beacon": {"uuid": "#
                + #""E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 7}, "ranging": true}, "#
                + #""geometry": null},"#
        )
        #expect(
            lines[5] == #"    {"type": "Feature", "properties": {"id": "fleet", "notify_on_entry": true, "#
                + #""notify_on_exit": true, "beacon": {"uuid": "00000000-0000-0000-0000-0000000000AB"}}, "#
                + #""geometry": null},"#
        )
        let file = RegionFile(parsing: text, fileName: "regions.geojson")
        #expect(try file.checkedEntries() == entries)
        #expect(file.features.map(\.position.line) == [4, 5, 6, 7])
        #expect(RegionFile.encode(entries: try file.checkedEntries()) == text)
    }

    @Test("random mixes of regions survive encoding and parsing")
    func randomRoundTrips() throws {
        var random = SplitMix64(seed: 19)
        for round in 0..<200 {
            let entries: [RegionFile.Entry] = (0..<Int.random(in: 0...6, using: &random)).map { number in
                if Bool.random(using: &random) {
                    return .geographic(RegionFileEncodingTests.randomRegion(number: number, using: &random))
                }
                let major = Bool.random(using: &random) ? UInt16.random(in: 0...UInt16.max, using: &random) : nil
                let minor = major != nil && Bool.random(using: &random) ? UInt16.random(in: 0...9, using: &random) : nil
                let ranging = [true, false, nil].randomElement(using: &random)!
                return .beacon(
                    BeaconRegion(
                        id: "b\(number)" + RegionFileEncodingTests.awkwardStrings.randomElement(using: &random)!,
                        name: Bool.random(using: &random) ? nil : "beacon \(number)",
                        constraint: BeaconConstraint(
                            uuid: BeaconUUID(high: random.next(), low: random.next()),
                            major: major,
                            minor: minor
                        ),
                        notifyOnEntry: Bool.random(using: &random),
                        notifyOnExit: Bool.random(using: &random),
                        ranging: ranging
                    )
                )
            }
            let file = RegionFile(parsing: RegionFile.encode(entries: entries), fileName: "regions.geojson")
            #expect(try file.checkedEntries() == entries, "round \(round)")
        }
    }
}
