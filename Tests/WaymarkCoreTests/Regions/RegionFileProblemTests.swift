import Testing

@testable import WaymarkCore

@Suite("RegionFile: one problem per malformed feature, named precisely")
struct RegionFileProblemTests {
    @Test(
        "each problem names the feature, the member, the value and what is wrong",
        arguments: Case.coordinates + Case.ids + Case.geometries + Case.features
            + Case.properties + Case.repeatedKeys
    )
    func problem(_ expected: Case) throws {
        let file = RegionFileTests.parse(
            RegionFileTests.collection([
                RegionFileTests.circle("good"), expected.feature, RegionFileTests.circle("after"),
            ])
        )
        #expect(file.regions.map(\.id) == ["good", "after"])
        #expect(file.collectionProblems.isEmpty)
        #expect(file.features.count == 3)
        #expect(file.features[1].region == nil)
        let problem = try #require(file.problems.first)
        #expect(file.problems.count == 1, "\(file.problems)")
        #expect(file.features[1].problems == [problem])
        #expect(problem.code == expected.code)
        #expect(problem.file == "regions.geojson")
        #expect(problem.featureIndex == 1)
        #expect(problem.position.line == 3)
        #expect(problem.member == expected.member)
        #expect(problem.value == expected.value)
        #expect(problem.message == expected.message)
        #expect(throws: RegionFileError(problems: [problem])) { try file.checkedRegions() }
    }
}

extension RegionFileProblemTests {
    @Test("a key given twice at the top of the file refuses the file, naming both lines")
    func repeatedKeyOfTheCollection() throws {
        let text = RegionFileTests.collection([RegionFileTests.circle("a")]).dropLast(2) + #", "features": []}"#
        let file = RegionFileTests.parse(String(text))
        let problem = try #require(file.collectionProblems.first)
        #expect(file.collectionProblems.count == 1)
        #expect(problem.code == .duplicateKey)
        #expect(
            problem.description
                == #"regions.geojson:3:4: features: duplicate key "features" in the FeatureCollection, line 3 "#
                + "(first given at line 1); give each key once"
        )
        #expect(throws: RegionFileError.self) { try file.checkedRegions() }
    }
}

extension RegionFileProblemTests {
    /// One malformed feature, and the problem it must give: its code, member, value (as written) and message.
    struct Case: Sendable, CustomTestStringConvertible {
        var feature: String
        var code: RegionFileProblem.Code
        var member: String?
        var value: String?
        var message: String

        var testDescription: String { "\(code): \(member ?? "-") \(message)" }

        init(_ feature: String, _ code: RegionFileProblem.Code, _ member: String?, _ value: String?, _ message: String)
        {
            self.feature = feature
            self.code = code
            self.member = member
            self.value = value
            self.message = message
        }

        /// A feature with these properties (the members inside the braces) and this geometry.
        static func feature(_ properties: String, _ geometry: String) -> String {
            #"{"type": "Feature", "properties": {\#(properties)}, "geometry": \#(geometry)}"#
        }

        static func geometry(_ type: String, _ coordinates: String) -> String {
            #"{"type": "\#(type)", "coordinates": \#(coordinates)}"#
        }

        /// A circle with id "x", radius 5 and these coordinates.
        static func circle(_ coordinates: String) -> String {
            feature(#""id": "x", "radius": 5"#, geometry("Point", coordinates))
        }

        /// A point at [1, 2] with these properties.
        static func point(_ properties: String) -> String { feature(properties, geometry("Point", "[1, 2]")) }

        /// A Polygon with id "x" and these coordinates.
        static func polygon(_ coordinates: String) -> String {
            feature(#""id": "x""#, geometry("Polygon", coordinates))
        }

        static func multiPolygon(_ coordinates: String) -> String {
            feature(#""id": "x""#, geometry("MultiPolygon", coordinates))
        }

        static let regionGeometries = "a region is a Point with a radius, a Polygon or a MultiPolygon"
        static let latitudeRange = "latitude must be within -90...90 (a GeoJSON position is [longitude, latitude])"
        static let triangle = "[[0, 0], [1, 0], [1, 1], [0, 0]]"

        static let coordinates: [Case] = [
            Case(
                circle(#"[12.1, "49"]"#),
                .invalidCoordinates,
                "geometry.coordinates[1]",
                "\"49\"",
                "must be a number"
            ),
            Case(circle("[12.1, 91]"), .invalidCoordinates, "geometry.coordinates[1]", "91", latitudeRange),
            Case(
                circle("[-180.5, 49]"),
                .invalidCoordinates,
                "geometry.coordinates[0]",
                "-180.5",
                "longitude must be within -180...180"
            ),
            Case(
                circle("[1e999, 49]"),
                .invalidCoordinates,
                "geometry.coordinates[0]",
                "1e999",
                "longitude must be within -180...180"
            ),
            Case(
                circle("[12]"),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "a position is [longitude, latitude] or [longitude, latitude, altitude]; this one has 1 element"
            ),
            Case(
                circle("[1, 2, 3, 4]"),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "a position is [longitude, latitude] or [longitude, latitude, altitude]; this one has 4 elements"
            ),
            Case(
                circle(#""12.1, 49""#),
                .invalidCoordinates,
                "geometry.coordinates",
                "\"12.1, 49\"",
                "must be a position: [longitude, latitude]"
            ),
            Case(
                circle("[[1, 2]]"),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "nested 2 deep, but a Point's coordinates nest 1 deep: [longitude, latitude]"
            ),
            Case(
                feature(#""id": "x", "radius": 5"#, #"{"type": "Point"}"#),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "missing"
            ),
            Case(
                polygon("[[[0, 0], [1, 0], [0, 0]]]"),
                .invalidCoordinates,
                "geometry.coordinates[0]",
                nil,
                "a ring needs at least 4 positions, the last the same as the first; this one has 3"
            ),
            Case(
                polygon("[[]]"),
                .invalidCoordinates,
                "geometry.coordinates[0]",
                nil,
                "a ring needs at least 4 positions, the last the same as the first; this one has 0"
            ),
            Case(
                polygon("[[[0, 0], [1, 0], [1, 1], [0, 1]]]"),
                .invalidCoordinates,
                "geometry.coordinates[0]",
                nil,
                "the ring is not closed: its last position [0, 1] must repeat its first [0, 0]"
            ),
            Case(
                polygon("[[[0, 0], [1, 0], [1, 95], [0, 0]]]"),
                .invalidCoordinates,
                "geometry.coordinates[0][2][1]",
                "95",
                latitudeRange
            ),
            Case(
                polygon(triangle),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "nested 2 deep, but a Polygon's coordinates nest 3 deep: [[[longitude, latitude], …], …]"
            ),
            Case(polygon("[]"), .invalidCoordinates, "geometry.coordinates", nil, "a polygon needs its outer ring"),
            Case(
                multiPolygon("[[\(triangle)], [[[5, 5], [6, 5], [6, 6], [5, 5]], [[5, 5], [5, 6], [6, 6], [5, 6]]]]"),
                .invalidCoordinates,
                "geometry.coordinates[1][1]",
                nil,
                "the ring is not closed: its last position [5, 6] must repeat its first [5, 5]"
            ),
            Case(
                multiPolygon("[\(triangle)]"),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "nested 3 deep, but a MultiPolygon's coordinates nest 4 deep: "
                    + "[[[[longitude, latitude], …], …], …]"
            ),
            Case(
                multiPolygon("[]"),
                .invalidCoordinates,
                "geometry.coordinates",
                nil,
                "a MultiPolygon needs a polygon"
            ),
        ]

        static let ids: [Case] = [
            Case(
                point(#""radius": 5"#),
                .missingID,
                "properties.id",
                nil,
                "missing: each region needs an id, unique in the file"
            ),
            Case(point(#""id": "", "radius": 5"#), .missingID, "properties.id", "\"\"", "must not be empty"),
            Case(
                point(#""id": true, "radius": 5"#),
                .invalidID,
                "properties.id",
                "true",
                "must be a string or an integer"
            ),
            Case(
                point(#""id": 1.5, "radius": 5"#),
                .invalidID,
                "properties.id",
                "1.5",
                "must be a string or an integer"
            ),
            Case(
                #"{"type": "Feature", "id": "y", "properties": {"id": "x", "radius": 5}, "geometry": "#
                    + geometry("Point", "[1, 2]") + "}",
                .invalidID,
                "id",
                "\"y\"",
                "differs from properties.id \"x\"; give one id, or the same in both"
            ),
        ]

        static let geometries: [Case] = [
            Case(
                feature(#""id": "x", "radius": 5"#, geometry("Circle", "[1, 2]")),
                .unsupportedGeometry,
                "geometry.type",
                "\"Circle\"",
                "not a GeoJSON geometry type: \(regionGeometries)"
            ),
            Case(
                feature(#""id": "x""#, geometry("LineString", "[[1, 2], [3, 4]]")),
                .unsupportedGeometry,
                "geometry.type",
                "\"LineString\"",
                "a LineString is not an area: \(regionGeometries)"
            ),
            Case(
                feature(#""id": "x""#, #"{"coordinates": [1, 2]}"#),
                .unsupportedGeometry,
                "geometry.type",
                nil,
                "missing: \(regionGeometries)"
            ),
            Case(
                feature(#""id": "x""#, "null"),
                .invalidBeacon,
                "geometry",
                "null",
                #"only a beacon region has no geometry, and it needs properties.beacon: {"uuid": "#
                    + #""E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 7}; an area is a Point with a "#
                    + "radius, a Polygon or a MultiPolygon"
            ),
            Case(
                #"{"type": "Feature", "properties": {"id": "x"}}"#,
                .malformedFeature,
                "geometry",
                nil,
                "missing: \(regionGeometries)"
            ),
        ]

        static let features: [Case] = [
            Case(
                #"{"properties": {"id": "x", "radius": 5}, "geometry": "# + geometry("Point", "[1, 2]") + "}",
                .malformedFeature,
                "type",
                nil,
                "missing: a feature is {\"type\": \"Feature\", \"properties\": {…}, \"geometry\": {…}}"
            ),
            Case(geometry("Point", "[1, 2]"), .malformedFeature, "type", "\"Point\"", "must be \"Feature\""),
            Case("[1, 2]", .malformedFeature, nil, nil, "must be a Feature object, not an array"),
            Case(
                #"{"type": "Feature", "properties": ["x"], "geometry": "# + geometry("Point", "[1, 2]") + "}",
                .malformedFeature,
                "properties",
                "an array",
                "must be an object (or null)"
            ),
        ]

        /// A key given twice in an object of a feature refuses the feature, whichever value it has.
        static let repeatedKeys: [Case] = [
            Case(
                point(#""id": "x", "name": "Depot", "radius": 5, "name": "Yard""#),
                .duplicateKey,
                "properties.name",
                nil,
                #"duplicate key "name" in the properties of feature 1, line 3 (first given at line 3); give each key once"#
            ),
            Case(
                point(#""id": "x", "radius": 5, "radius": 5"#),
                .duplicateKey,
                "properties.radius",
                nil,
                #"duplicate key "radius" in the properties of feature 1, line 3 (first given at line 3); give each key once"#
            ),
            Case(
                #"{"type": "Feature", "type": "Feature", "properties": {"id": "x", "radius": 5}, "geometry": "#
                    + geometry("Point", "[1, 2]") + "}",
                .duplicateKey,
                "type",
                nil,
                #"duplicate key "type" in feature 1, line 3 (first given at line 3); give each key once"#
            ),
            Case(
                #"{"type": "Feature", "properties": {"id": "x", "radius": 5}, "geometry": {"type": "Point", "#
                    + #""coordinates": [1, 2], "coordinates": [3, 4]}}"#,
                .duplicateKey,
                "geometry.coordinates",
                nil,
                #"duplicate key "coordinates" in the geometry of feature 1, line 3 (first given at line 3); give each key once"#
            ),
        ]

        static let properties: [Case] = [
            Case(
                point(#""id": "x""#),
                .invalidRadius,
                "properties.radius",
                nil,
                "missing: a Point region is the circle of this many metres around it"
            ),
            Case(
                point(#""id": "x", "radius": -5"#),
                .invalidRadius,
                "properties.radius",
                "-5",
                "must be a positive number of metres"
            ),
            Case(
                point(#""id": "x", "radius": 0"#),
                .invalidRadius,
                "properties.radius",
                "0",
                "must be a positive number of metres"
            ),
            Case(
                point(#""id": "x", "radius": 2E+999"#),
                .invalidRadius,
                "properties.radius",
                "2E+999",
                "must be a positive number of metres"
            ),
            Case(
                point(#""id": "x", "radius": "150""#),
                .invalidRadius,
                "properties.radius",
                "\"150\"",
                "must be a number of metres"
            ),
            Case(
                feature(#""id": "x", "radius": 150.0"#, geometry("Polygon", "[\(triangle)]")),
                .invalidRadius,
                "properties.radius",
                "150",
                "only a Point has a radius; a polygon is its own area"
            ),
            Case(
                point(#""id": "x", "radius": 5, "name": 5"#),
                .invalidProperty,
                "properties.name",
                "5",
                "must be a string"
            ),
            Case(
                point(#""id": "x", "radius": 5, "notify_on_entry": "yes""#),
                .invalidProperty,
                "properties.notify_on_entry",
                "\"yes\"",
                "must be true or false"
            ),
            Case(
                point(#""id": "x", "radius": 5, "notify_on_exit": 0"#),
                .invalidProperty,
                "properties.notify_on_exit",
                "0",
                "must be true or false"
            ),
        ]
    }
}
