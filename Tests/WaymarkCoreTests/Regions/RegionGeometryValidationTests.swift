import Foundation
import Testing
import WaymarkCore

@Suite struct RegionGeometryValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: RegionShape
        var code: RegionGeometryError.Code
        var path: [Int]
        var message: String
        var testDescription: String { message }
    }

    static let square = RegionGeometryTests.box(south: 50, west: 8, north: 50.1, east: 8.1)

    static let cases: [Case] = [
        Case(
            shape: .circle(center: Coordinate(latitude: 50, longitude: 8), radius: 0),
            code: .invalidRadius,
            path: [],
            message: "radius 0.0: must be a finite number of metres above 0"
        ),
        Case(
            shape: .circle(center: Coordinate(latitude: 50, longitude: 8), radius: -5),
            code: .invalidRadius,
            path: [],
            message: "radius -5.0: must be a finite number of metres above 0"
        ),
        Case(
            shape: .circle(center: Coordinate(latitude: 50, longitude: 8), radius: .infinity),
            code: .invalidRadius,
            path: [],
            message: "radius inf: must be a finite number of metres above 0"
        ),
        Case(
            shape: .circle(center: Coordinate(latitude: 90.5, longitude: 8), radius: 10),
            code: .invalidCoordinate,
            path: [],
            message: "center: latitude 90.5: must be within -90 ... 90 degrees"
        ),
        Case(
            shape: .circle(center: Coordinate(latitude: 50, longitude: .nan), radius: 10),
            code: .invalidCoordinate,
            path: [],
            message: "center: longitude nan: must be within -180 ... 180 degrees"
        ),
        Case(
            shape: .polygons([]),
            code: .emptyShape,
            path: [],
            message: "no polygon: a shape needs at least one"
        ),
        Case(
            shape: .polygons([[square], []]),
            code: .emptyShape,
            path: [1],
            message: "polygon 2: no ring: a polygon needs its outer ring"
        ),
        Case(
            shape: .polygons([[Array(square.prefix(3))]]),
            code: .malformedRing,
            path: [0, 0],
            message: "polygon 1, ring 1 (outer): 3 positions: a ring needs at least 4, the first repeated as the last"
        ),
        Case(
            shape: .polygons([[square, Array(square.dropLast())]]),
            code: .malformedRing,
            path: [0, 1],
            message: "polygon 1, ring 2 (hole 1): not closed: the last position [8.0, 50.1] must repeat the first "
                + "[8.0, 50.0]"
        ),
        Case(
            shape: .polygons([
                [square],
                [square.enumerated().map { $0.offset == 2 ? Coordinate(latitude: 50, longitude: 181) : $0.element }],
            ]),
            code: .invalidCoordinate,
            path: [1, 0, 2],
            message: "polygon 2, ring 1 (outer), position 3: longitude 181.0: must be within -180 ... 180 degrees"
        ),
        Case(
            shape: .polygons([[RegionGeometryTests.box(south: 40, west: 0, north: 50, east: 10)]]),
            code: .tooLarge,
            path: [],
            message: "the polygons reach 700.2 km from their center [5.0, 45.109222]: at most 500.0 km is "
                + "supported"
        ),
        Case(
            shape: .polygons([[RegionGeometryTests.ring([(0, 0), (0, 120), (0, -120)])]]),
            code: .tooLarge,
            path: [],
            message: "the polygons spread over a large part of the globe: their vertices must lie within 500.0 km of "
                + "their center"
        ),
    ]

    @Test("shapes that cannot be monitored say why and where", arguments: cases)
    func rejected(_ test: Case) {
        #expect(throws: RegionGeometryError(code: test.code, path: test.path, message: test.message)) {
            try PreparedRegion(Region(id: "bad", shape: test.shape))
        }
        #expect(test.shape.signedDistance(to: Coordinate(latitude: 50, longitude: 8)).isNaN)
    }

    @Test func theStructuralChecksRunWithoutProjecting() throws {
        // Too large for the projection, yet well formed.
        try RegionShape.polygons([[RegionGeometryTests.box(south: 40, west: 0, north: 50, east: 10)]]).validate()
        #expect(throws: RegionGeometryError.self) {
            try RegionShape.circle(center: Coordinate(latitude: 0, longitude: 0), radius: .nan).validate()
        }
    }

    @Test func aPolygonJustWithinTheLimitIsAccepted() throws {
        // About 430 km from its center to its corners.
        let region = try PreparedRegion(
            Region(id: "big", shape: .polygons([[RegionGeometryTests.box(south: 48, west: 6, north: 54, east: 14)]]))
        )
        #expect(region.size > 400_000 && region.size <= PreparedRegion.maximumPolygonSize, "\(region.size)")
    }

    /// A bow-tie: the ring's second edge and its fourth cross at the box's middle.
    static let bowTie = RegionGeometryTests.ring([(50, 8), (50.1, 8.1), (50.1, 8), (50, 8.1)])

    @Test("a ring that crosses itself names the two edges and where they cross", arguments: [0, 1])
    func selfIntersectingRing(ring: Int) throws {
        let rings =
            ring == 0
            ? [Self.bowTie] : [RegionGeometryTests.box(south: 49.9, west: 7.9, north: 50.2, east: 8.2), Self.bowTie]
        let error = try #require(throws: RegionGeometryError.self) {
            try PreparedRegion(Region(id: "bow-tie", shape: .polygons([[Self.square], rings])))
        }
        #expect(error.code == .selfIntersecting && error.path == [1, ring])
        let place = ring == 0 ? "polygon 2, ring 1 (outer)" : "polygon 2, ring 2 (hole 1)"
        #expect(
            error.message.hasPrefix(
                "\(place): the edge from position 1 to 2 crosses the edge from position 3 to 4 near [8.05"
            ),
            "\(error.message)"
        )
        #expect(error.message.hasSuffix("a ring must not cross itself; reorder its positions"))
        // Near the middle, where the diagonals cross: a few metres off at most.
        let numbers = error.message.split(separator: "[")[1].split(separator: "]")[0].split(separator: ", ")
        let near = Coordinate(latitude: try #require(Double(numbers[1])), longitude: try #require(Double(numbers[0])))
        #expect(Geodesic.distance(from: near, to: Coordinate(latitude: 50.05, longitude: 8.05)) < 10)
    }

    @Test("rings that do not cross are accepted: concave, touching at a vertex, many positions")
    func simpleRingsAreAccepted() throws {
        let concave = RegionGeometryTests.ring([(50, 8), (50, 8.1), (50.1, 8.1), (50.05, 8.05), (50.1, 8)])
        let touching = RegionGeometryTests.ring([
            (50, 8), (50, 8.1), (50.05, 8.05), (50.1, 8.1), (50.1, 8), (50.05, 8.05),
        ])
        let circle = (0..<2000).map { index -> (Double, Double) in
            let angle = Double(index) / 2000 * 2 * Double.pi
            return (50 + 0.1 * sin(angle), 8 + 0.15 * cos(angle))
        }
        for ring in [concave, touching, RegionGeometryTests.ring(circle)] {
            _ = try PreparedRegion(Region(id: "simple", shape: .polygons([[ring]])))
        }
    }

    @Test func vertexCountLeavesOutTheClosingPositions() {
        let hole = RegionGeometryTests.box(south: 50.04, west: 8.04, north: 50.06, east: 8.06)
        #expect(RegionShape.polygons([[Self.square, hole], [Self.square]]).vertexCount == 12)
        #expect(RegionShape.circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1).vertexCount == 0)
    }

    @Test func codesReadAsWords() {
        #expect(RegionGeometryError.Code.tooLarge.description == "too large")
        #expect(RegionGeometryError.Code.malformedRing.description == "malformed ring")
        #expect(RegionGeometryError.Code.selfIntersecting.description == "self-intersecting ring")
        let error = RegionGeometryError(code: .invalidRadius, message: "radius 0.0: must be above 0")
        #expect(error.description == "radius 0.0: must be above 0")
    }
}
