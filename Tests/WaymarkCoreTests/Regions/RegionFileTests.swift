import Testing

@testable import WaymarkCore

@Suite("RegionFile: regions from a GeoJSON FeatureCollection")
struct RegionFileTests {
    static func parse(_ text: String) -> RegionFile {
        RegionFile(parsing: Array(text.utf8), fileName: "regions.geojson")
    }

    /// A FeatureCollection with one feature per line: `features[i]` is on line `i + 2`.
    static func collection(_ features: [String]) -> String {
        "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func circle(_ id: String, radius: String = "100", at position: String = "[12.1, 49.0]") -> String {
        #"{"type": "Feature", "properties": {"id": "\#(id)", "radius": \#(radius)}, "#
            + #""geometry": {"type": "Point", "coordinates": \#(position)}}"#
    }

    static func square(_ id: String) -> String {
        #"{"type": "Feature", "properties": {"id": "\#(id)"}, "geometry": {"type": "Polygon", "coordinates": "#
            + "[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}}"
    }

    static func ring(_ corners: [(Double, Double)]) -> [Coordinate] {
        (corners + [corners[0]]).map { Coordinate(latitude: $0.1, longitude: $0.0) }
    }

    @Test("circles, polygons with holes and multipolygons become regions, with their properties")
    func regions() throws {
        let text = Self.collection([
            #"{"type": "Feature", "properties": {"id": "depot", "name": "Depot", "radius": 150.5}, "#
                + #""geometry": {"type": "Point", "coordinates": [12.0997, 49.0117, 339.5]}}"#,
            #"{"type": "Feature", "properties": {"id": "yard", "notify_on_entry": false}, "#
                + #""geometry": {"type": "Polygon", "coordinates": ["#
                + "[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]]]}}",
            #"{"type": "Feature", "properties": {"id": "bays", "notify_on_exit": false}, "#
                + #""geometry": {"type": "MultiPolygon", "coordinates": ["#
                + "[[[10, 10], [11, 10], [11, 11], [10, 10]]], "
                + "[[[20, -20], [21, -20], [21, -19], [20, -19], [20, -20]]]]}}",
        ])
        let file = Self.parse(text)
        #expect(file.problems.isEmpty)
        let regions = try file.checkedRegions()
        #expect(
            regions == [
                Region(
                    id: "depot",
                    name: "Depot",
                    shape: .circle(center: Coordinate(latitude: 49.0117, longitude: 12.0997), radius: 150.5)
                ),
                Region(
                    id: "yard",
                    notifyOnEntry: false,
                    shape: .polygons([
                        [Self.ring([(0, 0), (4, 0), (4, 4), (0, 4)]), Self.ring([(1, 1), (1, 2), (2, 2), (2, 1)])]
                    ])
                ),
                Region(
                    id: "bays",
                    notifyOnExit: false,
                    shape: .polygons([
                        [Self.ring([(10, 10), (11, 10), (11, 11)])],
                        [Self.ring([(20, -20), (21, -20), (21, -19), (20, -19)])],
                    ])
                ),
            ]
        )
        #expect(file.features.map(\.vertexCount) == [0, 8, 7])
        #expect(file.features.map(\.id) == ["depot", "yard", "bays"])
        #expect(
            file.features.map(\.position) == [
                .init(line: 2, column: 1), .init(line: 3, column: 1), .init(line: 4, column: 1),
            ]
        )
    }

    @Test("a problem's line names the file, position, feature, id, member, value and what is wrong")
    func description() throws {
        let text = Self.collection([Self.circle("depot"), Self.circle("gate", radius: "-5")])
        let error = try #require(throws: RegionFileError.self) { try Self.parse(text).checkedRegions() }
        #expect(
            error.description
                == #"regions.geojson:3:60: features[1] (id "gate"): properties.radius = -5: "#
                + "must be a positive number of metres"
        )
        let missing = Self.collection([#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}"#])
        #expect(
            Self.parse(missing).problems.map(\.description) == [
                "regions.geojson:2:1: features[0]: properties.id: missing: each region needs an id, unique in the file",
                "regions.geojson:2:1: features[0]: properties.radius: missing: a Point region is the circle of this "
                    + "many metres around it",
            ]
        )
    }

    @Test("a duplicate id: the later feature is the problem, the earlier keeps its region")
    func duplicateID() throws {
        let text = Self.collection([Self.circle("a"), Self.square("b"), Self.circle("a", radius: "7")])
        let file = Self.parse(text)
        #expect(file.regions.map(\.id) == ["a", "b"])
        #expect(file.features[2].id == "a" && file.features[2].region == nil)
        #expect(
            file.problems.map(\.description) == [
                #"regions.geojson:4:42: features[2] (id "a"): properties.id = "a": "#
                    + "already the id of features[0] at line 2; ids must be unique"
            ]
        )
        #expect(file.problems.map(\.code) == [.duplicateID])
    }

    @Test("integer ids are their decimal text; the Feature's own id serves when properties have none")
    func idForms() throws {
        let point = #""geometry": {"type": "Point", "coordinates": [1, 2]}"#
        let text = Self.collection([
            #"{"type": "Feature", "properties": {"id": 17, "radius": 1}, \#(point)}"#,
            #"{"type": "Feature", "properties": {"id": -3, "radius": 1}, \#(point)}"#,
            #"{"type": "Feature", "id": "own", "properties": {"radius": 1}, \#(point)}"#,
            #"{"type": "Feature", "id": 42, "properties": {"id": null, "radius": 1}, \#(point)}"#,
            #"{"type": "Feature", "id": "same", "properties": {"id": "same", "radius": 1}, \#(point)}"#,
            #"{"type": "Feature", "id": 12345678901234567890123, "properties": {"radius": 1}, \#(point)}"#,
        ])
        let regions = try Self.parse(text).checkedRegions()
        #expect(regions.map(\.id) == ["17", "-3", "own", "42", "same", "12345678901234567890123"])
    }

    @Test("null counts as absent; foreign members and unknown properties are ignored; the altitude is dropped")
    func nullsAndForeignMembers() throws {
        let text = """
            {"type": "FeatureCollection", "description": ["any", {"json": true}], "bbox": [0, 0, 1, 1],
             "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
             "features": [
              {"type": "Feature", "bbox": [1, 2, 1, 2], "description": "x",
               "properties": {"id": "p", "name": null, "notify_on_entry": null, "notify_on_exit": false,
                              "radius": 25, "colour": "red", "description": {"nested": [1, 2]}},
               "geometry": {"type": "Point", "coordinates": [1, 2, -30.5], "bbox": [1, 2, 1, 2]}}
             ]}
            """
        let regions = try Self.parse(text).checkedRegions()
        #expect(
            regions == [
                Region(
                    id: "p",
                    notifyOnEntry: true,
                    notifyOnExit: false,
                    shape: .circle(center: Coordinate(latitude: 2, longitude: 1), radius: 25)
                )
            ]
        )
    }

    @Test("the members of a feature and of its geometry may come in any order")
    func memberOrder() throws {
        let canonical = Self.collection([Self.square("s"), Self.circle("c")])
        let shuffled = Self.collection([
            #"{"geometry": {"coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], "type": "Polygon"}, "#
                + #""properties": {"id": "s"}, "type": "Feature"}"#,
            #"{"properties": {"radius": 100, "id": "c"}, "geometry": {"coordinates": [12.1, 49.0], "type": "Point"}, "#
                + #""type": "Feature"}"#,
        ])
        #expect(try Self.parse(shuffled).checkedRegions() == Self.parse(canonical).checkedRegions())

        // Coordinates read after the type that follows them still name their own position.
        let late = Self.collection([
            #"{"geometry": {"coordinates": [[[0, 0], [1, 0], [1, 99], [0, 0]]], "type": "Polygon"}, "#
                + #""properties": {"id": 7}, "type": "Feature"}"#
        ])
        #expect(
            Self.parse(late).problems.map(\.description) == [
                #"regions.geojson:2:52: features[0] (id "7"): geometry.coordinates[0][2][1] = 99: latitude must be "#
                    + "within -90...90 (a GeoJSON position is [longitude, latitude])"
            ]
        )
    }

    @Test("problems are listed in the order of the file, whatever order they are found in")
    func order() throws {
        let text = Self.collection([
            #"{"geometry": {"coordinates": [200, 2], "type": "Point"}, "type": "Feature", "properties": {"#
                + #""radius": -1, "name": 3}}"#,
            Self.circle("fine"),
            #"{"type": "Feature", "properties": {"id": "z", "radius": 5, "notify_on_exit": 1}, "geometry": "#
                + #"{"type": "Point", "coordinates": [1, -100]}}"#,
        ])
        let file = Self.parse(text)
        let positions = file.problems.map(\.position)
        #expect(positions == positions.sorted())
        #expect(
            file.problems.map { "\($0.position) \($0.member ?? "")" } == [
                "2:31 geometry.coordinates[0]",
                "2:91 properties.id",
                "2:102 properties.radius",
                "2:114 properties.name",
                "4:78 properties.notify_on_exit",
                "4:131 geometry.coordinates[1]",
            ]
        )
        #expect(file.features.map(\.problems.count) == [4, 0, 2])
    }

    @Test("malformed JSON: the problem names where, and the feature it is in; the features before it are read")
    func malformedJSON() throws {
        let text = Self.collection([Self.circle("a"), Self.circle("b", radius: "-1"), Self.circle("c", radius: "5,")])
        let file = Self.parse(text)
        #expect(file.features.map(\.id) == ["a", "b"])
        #expect(
            file.collectionProblems.map(\.description) == [
                #"regions.geojson:4:59: features[2]: expected a key in double quotes, found "}""#
            ]
        )
        #expect(file.collectionProblems.map(\.code) == [.malformedJSON])
        #expect(file.problems.count == 2)
        let error = try #require(throws: RegionFileError.self) { try file.checkedRegions() }
        #expect(error.problems.map(\.code) == [.invalidRadius, .malformedJSON])

        let notUTF8 = RegionFile(parsing: [0x7B, 0x22, 0xFF, 0x22], fileName: "regions.geojson")
        #expect(notUTF8.problems.map(\.description) == ["regions.geojson:1:3: byte 0xFF in a string is not UTF-8"])
    }

    @Test(
        "a file that is not a FeatureCollection says so",
        arguments: [
            ("[]", "regions.geojson:1:1: the file must hold a GeoJSON FeatureCollection, not an array"),
            (
                #"{"type": "Feature", "features": []}"#,
                #"regions.geojson:1:10: type = "Feature": must be "FeatureCollection": "#
                    + "a region file holds one, even for a single region"
            ),
            (#"{"features": []}"#, "regions.geojson:1:1: type: missing: the top level must be a FeatureCollection"),
            (#"{"type": "FeatureCollection"}"#, "regions.geojson:1:1: features: missing: the regions are its features"),
            (
                #"{"type": "FeatureCollection", "features": {}}"#,
                "regions.geojson:1:43: features = an object: must be an array of Feature objects"
            ),
        ]
    )
    func notFeatureCollection(text: String, problem: String) {
        let file = Self.parse(text)
        #expect(file.problems.map(\.description) == [problem])
        #expect(file.collectionProblems.map(\.code) == [.notFeatureCollection])
    }

    @Test("an empty FeatureCollection holds no regions and no problems")
    func empty() throws {
        #expect(try Self.parse(#"{"type": "FeatureCollection", "features": []}"#).checkedRegions() == [])
    }

    @Test("problems are capped per feature and per file, so a hostile file cannot fill memory with them")
    func problemCaps() throws {
        let positions = (0..<15).map { "[\($0), 95]" }.joined(separator: ", ")
        let bad =
            #"{"type": "Feature", "properties": {"id": "x"}, "geometry": {"type": "Polygon", "coordinates": "#
            + "[[\(positions)]]}}"
        let feature = Self.parse(Self.collection([bad])).features[0]
        #expect(feature.problems.count == RegionFile.maximumProblemsPerFeature + 1)
        #expect(feature.problems.prefix(10).allSatisfy { $0.code == .invalidCoordinates })
        #expect(feature.problems.last?.code == .tooManyProblems)
        #expect(feature.problems.last?.message == "5 more problems in this feature are not listed")

        let idless =
            #"{"type": "Feature", "properties": {"radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#
        let file = Self.parse(Self.collection(Array(repeating: idless, count: 1_500) + ["{\"x\": [}"]))
        #expect(file.features.count == RegionFile.maximumProblems)
        #expect(
            file.collectionProblems.map(\.description) == [
                "regions.geojson:1002:1: more than 1000 problems: features[1000] and those after it were not checked",
                "regions.geojson:1502:8: expected a value, found \"}\"",
            ]
        )
    }
}
