import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@Suite struct RegionGeometryTests {
    static func circle(_ latitude: Double, _ longitude: Double, radius: Double) -> RegionShape {
        .circle(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    }

    /// A closed ring through `corners` given as (latitude, longitude).
    static func ring(_ corners: [(Double, Double)]) -> [Coordinate] {
        let positions = corners.map { Coordinate(latitude: $0.0, longitude: $0.1) }
        return positions + [positions[0]]
    }

    /// The ring of a latitude-longitude box, counter-clockwise from its south-west corner.
    static func box(south: Double, west: Double, north: Double, east: Double) -> [Coordinate] {
        ring([(south, west), (south, east), (north, east), (north, west)])
    }

    static func prepared(_ shape: RegionShape) throws -> PreparedRegion {
        try PreparedRegion(Region(id: "test", shape: shape))
    }

    struct CircleCase: Sendable, CustomTestStringConvertible {
        var name: String
        var center: Coordinate
        var radius: Double
        var point: Coordinate
        var inside: Bool
        var testDescription: String { name }
    }

    static let circleCases: [CircleCase] = [
        .init(
            name: "Regensburg, 1 km, center",
            center: .init(latitude: 49.0134, longitude: 12.1016),
            radius: 1_000,
            point: .init(latitude: 49.0134, longitude: 12.1016),
            inside: true
        ),
        .init(
            name: "Regensburg, 1 km, 800 m east",
            center: .init(latitude: 49.0134, longitude: 12.1016),
            radius: 1_000,
            point: .init(latitude: 49.0134, longitude: 12.1126),
            inside: true
        ),
        .init(
            name: "Regensburg, 1 km, 1.2 km north",
            center: .init(latitude: 49.0134, longitude: 12.1016),
            radius: 1_000,
            point: .init(latitude: 49.0242, longitude: 12.1016),
            inside: false
        ),
        .init(
            name: "Fiji across the antimeridian, 5 km, 3.2 km east over it",
            center: .init(latitude: -16.5, longitude: 179.99),
            radius: 5_000,
            point: .init(latitude: -16.5, longitude: -179.98),
            inside: true
        ),
        .init(
            name: "Fiji across the antimeridian, 5 km, 7.5 km east over it",
            center: .init(latitude: -16.5, longitude: 179.99),
            radius: 5_000,
            point: .init(latitude: -16.5, longitude: -179.94),
            inside: false
        ),
        .init(
            name: "North Pole, 100 km, 55.8 km away on the far side",
            center: .init(latitude: 90, longitude: 0),
            radius: 100_000,
            point: .init(latitude: 89.5, longitude: 180),
            inside: true
        ),
        .init(
            name: "North Pole, 100 km, 111.7 km away",
            center: .init(latitude: 90, longitude: 0),
            radius: 100_000,
            point: .init(latitude: 89, longitude: -135),
            inside: false
        ),
        .init(
            name: "South Pole, 50 km, the pole itself",
            center: .init(latitude: -89.8, longitude: 45),
            radius: 50_000,
            point: .init(latitude: -90, longitude: 0),
            inside: true
        ),
    ]

    @Test("a circle's signed distance is the geodesic distance to its center less the radius", arguments: circleCases)
    func circle(_ test: CircleCase) throws {
        let shape = RegionShape.circle(center: test.center, radius: test.radius)
        let region = try Self.prepared(shape)
        let expected = Geodesic.distance(from: test.center, to: test.point) - test.radius
        #expect(region.signedDistance(to: test.point) == expected)
        #expect(shape.signedDistance(to: test.point) == expected)
        #expect((expected <= 0) == test.inside)
        #expect(region.size == test.radius)
        #expect(region.center == test.center)
    }

    @Test func aCircleAroundThePoleIsTheSameAtEveryLongitude() throws {
        let region = try Self.prepared(Self.circle(90, 0, radius: 100_000))
        let distances = stride(from: -180.0, through: 180, by: 15).map {
            region.signedDistance(to: Coordinate(latitude: 89.5, longitude: $0))
        }
        let meridianArc = Geodesic.distance(
            from: Coordinate(latitude: 89.5, longitude: 0),
            to: Coordinate(latitude: 90, longitude: 0)
        )
        for distance in distances { #expect(abs(distance - (meridianArc - 100_000)) < 1e-6) }
    }

    @Test func aPointOnACircleIsInside() throws {
        let center = Coordinate(latitude: 52.52, longitude: 13.405)
        let point = GeodesicWalk.destination(from: center, azimuth: 37, distance: 2_500)
        let radius = Geodesic.distance(from: center, to: point)
        let region = try Self.prepared(.circle(center: center, radius: radius))
        #expect(region.signedDistance(to: point) == 0)
        #expect(region.signedDistance(to: GeodesicWalk.destination(from: center, azimuth: 37, distance: 2_500.01)) > 0)
    }

    @Test func aPolygonWithAHole() throws {
        // 0.2° square around Regensburg with a 0.04° hole in its middle.
        let outer = Self.box(south: 48.9, west: 12.0, north: 49.1, east: 12.2)
        let hole = Self.box(south: 48.98, west: 12.08, north: 49.02, east: 12.12)
        let region = try Self.prepared(.polygons([[outer, hole]]))
        // The hole's center is outside, about 0.02° of latitude (2.2 km) from the hole's southern edge and
        // 0.02° of longitude (1.46 km) from its eastern and western edges.
        let holeCenter = region.signedDistance(to: Coordinate(latitude: 49.0, longitude: 12.1))
        let toHoleSide = Geodesic.distance(
            from: Coordinate(latitude: 49.0, longitude: 12.1),
            to: Coordinate(latitude: 49.0, longitude: 12.12)
        )
        #expect(abs(holeCenter - toHoleSide) < 0.5, "\(holeCenter) vs \(toHoleSide)")
        // Between the hole and the outer ring: inside, nearest to the hole's eastern edge.
        let ringMiddle = region.signedDistance(to: Coordinate(latitude: 49.0, longitude: 12.13))
        let toHoleEdge = Geodesic.distance(
            from: Coordinate(latitude: 49.0, longitude: 12.13),
            to: Coordinate(latitude: 49.0, longitude: 12.12)
        )
        #expect(abs(ringMiddle + toHoleEdge) < 0.5, "\(ringMiddle) vs \(-toHoleEdge)")
        // Beyond the outer ring.
        #expect(region.signedDistance(to: Coordinate(latitude: 49.0, longitude: 12.25)) > 3_000)
        // The same square without the hole holds the point.
        let solid = try Self.prepared(.polygons([[outer]]))
        #expect(solid.signedDistance(to: Coordinate(latitude: 49.0, longitude: 12.1)) < -7_000)
        // The orientation of the rings does not matter.
        let reversed = try Self.prepared(.polygons([[outer.reversed(), hole.reversed()]]))
        for point in [Coordinate(latitude: 49.0, longitude: 12.1), Coordinate(latitude: 49.0, longitude: 12.13)] {
            #expect(abs(reversed.signedDistance(to: point) - region.signedDistance(to: point)) < 1e-9)
        }
    }

    @Test func aMultiPolygonIsTheUnionOfItsPolygons() throws {
        let west = Self.box(south: 50.0, west: 8.0, north: 50.1, east: 8.1)
        let east = Self.box(south: 50.0, west: 8.3, north: 50.1, east: 8.4)
        let shape = RegionShape.polygons([[west], [east]])
        let region = try Self.prepared(shape)
        #expect(region.signedDistance(to: Coordinate(latitude: 50.05, longitude: 8.05)) < 0)
        #expect(region.signedDistance(to: Coordinate(latitude: 50.05, longitude: 8.35)) < 0)
        // Between them, nearer to the western one: its distance is to the western square's eastern edge.
        let between = Coordinate(latitude: 50.05, longitude: 8.15)
        let expected = Geodesic.distance(from: between, to: Coordinate(latitude: 50.05, longitude: 8.1))
        #expect(abs(region.signedDistance(to: between) - expected) < 0.5)
        #expect(shape.vertexCount == 8)
        #expect(!region.isCircle)
    }

    @Test func aPolygonAcrossTheAntimeridianMeasuresAsOneAtGreenwich() throws {
        // The same box once across the antimeridian, once across the prime meridian: a turn of the earth
        // about its axis, so every distance must agree.
        let acrossDateLine = try Self.prepared(
            .polygons([[Self.ring([(-16.6, 179.9), (-16.6, -179.9), (-16.4, -179.9), (-16.4, 179.9)])]])
        )
        let acrossGreenwich = try Self.prepared(
            .polygons([[Self.ring([(-16.6, -0.1), (-16.6, 0.1), (-16.4, 0.1), (-16.4, -0.1)])]])
        )
        for (latitude, longitude, inside) in [
            (-16.5, 180.0, true), (-16.5, -179.95, true), (-16.45, 179.92, true), (-16.5, 179.8, false),
            (-16.7, -179.99, false), (-16.5, 0.0, false),
        ] {
            let point = Coordinate(latitude: latitude, longitude: longitude)
            let turned = Coordinate(latitude: latitude, longitude: longitude - 180)
            let distance = acrossDateLine.signedDistance(to: point)
            #expect((distance <= 0) == inside, "\(point): \(distance)")
            if abs(longitude) > 90 {
                #expect(abs(distance - acrossGreenwich.signedDistance(to: turned)) < 1e-6, "\(point)")
            }
        }
        #expect(abs(acrossDateLine.center.longitude) > 179.99)
    }

    @Test func aPolygonAroundTheNorthPole() throws {
        // A 12-gon at 89.9° N: vertices 30° of longitude apart, so each edge (a geodesic) passes the pole at
        // cos 15° of the vertices' distance.
        let ring = Self.ring(stride(from: 0.0, to: 360, by: 30).map { (89.9, $0 - 180) })
        let region = try Self.prepared(.polygons([[ring]]))
        let toVertex = Geodesic.distance(from: Coordinate(latitude: 90, longitude: 0), to: ring[0])
        let atPole = region.signedDistance(to: Coordinate(latitude: 90, longitude: 0))
        #expect(abs(atPole + toVertex * cos(15 * Double.pi / 180)) < 5, "\(atPole)")
        #expect(region.signedDistance(to: Coordinate(latitude: 89.95, longitude: 45)) < 0)
        #expect(region.signedDistance(to: Coordinate(latitude: 89.85, longitude: 10)) > 0)
        // The pole is the same point at every longitude.
        #expect(abs(region.signedDistance(to: Coordinate(latitude: 90, longitude: 123)) - atPole) < 1e-6)
        #expect(region.center.latitude > 89.999)
    }

    @Test func pointsOnVerticesAndNearEdges() throws {
        let ring = Self.ring([(52.0, 10.0), (52.0, 10.2), (52.15, 10.1)])
        let region = try Self.prepared(.polygons([[ring]]))
        for vertex in ring { #expect(region.signedDistance(to: vertex) == 0, "\(vertex)") }
        // Across the southern edge (a geodesic from (52, 10) to (52, 10.2)) at its middle, where it bows
        // northwards of the parallel by about 13 cm.
        let a = ring[0]
        let edge = Geodesic.inverse(from: a, to: ring[1])
        let foot = GeodesicWalk.destination(from: a, azimuth: edge.initialAzimuth, distance: edge.distance / 2)
        let along = GeodesicWalk.azimuth(at: foot, from: a)
        for h in [0.001, 0.5, 20] {
            let north = GeodesicWalk.destination(from: foot, azimuth: along - 90, distance: h)
            let south = GeodesicWalk.destination(from: foot, azimuth: along + 90, distance: h)
            #expect(abs(region.signedDistance(to: north) + h) < 1e-6, "\(h) m north")
            #expect(abs(region.signedDistance(to: south) - h) < 1e-6, "\(h) m south")
        }
        #expect(abs(region.signedDistance(to: foot)) < 1e-6)
        // The parallel through the vertices runs outside the geodesic edge.
        #expect(region.signedDistance(to: Coordinate(latitude: 52.0, longitude: 10.1)) > 0.1)
        // Near a vertex, outside, the distance is to the vertex.
        let beyond = Coordinate(latitude: 51.999, longitude: 9.999)
        #expect(abs(region.signedDistance(to: beyond) - Geodesic.distance(from: beyond, to: a)) < 1e-4)
    }

    @Test func aPolygonsSizeIsItsFarthestVertexFromItsCenter() throws {
        let ring = Self.ring([(48.0, 11.0), (48.0, 11.5), (48.3, 11.6), (48.4, 11.2), (48.2, 10.9)])
        let region = try Self.prepared(.polygons([[ring]]))
        let farthest = ring.map { Geodesic.distance(from: region.center, to: $0) }.max() ?? 0
        #expect(region.size == farthest)
        #expect(abs(region.center.latitude - 48.18) < 0.1 && abs(region.center.longitude - 11.24) < 0.1)
        #expect(region.id == "test")
    }

    @Test func pointsOutOfRangeGiveNaN() throws {
        let polygon = try Self.prepared(.polygons([[Self.box(south: 1, west: 1, north: 2, east: 2)]]))
        let circle = try Self.prepared(Self.circle(1, 1, radius: 10))
        for point in [
            Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 91, longitude: 0),
            Coordinate(latitude: 0, longitude: .infinity),
        ] {
            #expect(polygon.signedDistance(to: point).isNaN)
            #expect(circle.signedDistance(to: point).isNaN)
        }
        // A point on the other side of the earth is far outside.
        let antipode = Coordinate(latitude: -1.5, longitude: -178.5)
        #expect(polygon.signedDistance(to: antipode) > 19_000_000)
    }
}
