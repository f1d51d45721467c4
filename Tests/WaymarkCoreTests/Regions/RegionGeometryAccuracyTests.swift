import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The direct geodesic problem (where a geodesic of a given start, azimuth and length ends) solved with the
/// module's inverse solution, Karney's: the end is corrected until the inverse from the start returns the
/// wanted length and azimuth to 10 nm. Test-only; the tests use it to place points on geodesic edges and
/// at known distances from them, independently of the projection under test.
enum GeodesicWalk {
    static func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        let radians = Double.pi / 180
        let e2 = 0.006_694_379_990_141_3
        var end = start
        var (east, north) = (distance * sin(azimuth * radians), distance * cos(azimuth * radians))
        for _ in 0..<40 {
            // Move the end by (east, north) metres of its own tangent plane.
            let sine = sin(end.latitude * radians)
            let w = 1 - e2 * sine * sine
            let primeVertical = 6_378_137 / w.squareRoot()
            let meridian = primeVertical * (1 - e2) / w
            end.latitude += north / meridian / radians
            end.longitude += east / (primeVertical * cos(end.latitude * radians)) / radians
            // Over a pole: down the meridian on the other side.
            if abs(end.latitude) > 90 {
                end.latitude = (end.latitude > 0 ? 180 : -180) - end.latitude
                end.longitude += 180
            }
            end.longitude = end.longitude.remainder(dividingBy: 360)
            let solved = Geodesic.inverse(from: start, to: end)
            // The miss in the start's azimuthal frame, turned into the end's by the meridians' convergence.
            let missEast = distance * sin(azimuth * radians) - solved.distance * sin(solved.initialAzimuth * radians)
            let missNorth = distance * cos(azimuth * radians) - solved.distance * cos(solved.initialAzimuth * radians)
            let turn = (solved.finalAzimuth - solved.initialAzimuth) * radians
            east = missEast * cos(turn) + missNorth * sin(turn)
            north = missNorth * cos(turn) - missEast * sin(turn)
            if (east * east + north * north).squareRoot() < 1e-8 { break }
        }
        return end
    }

    /// The forward azimuth of the geodesic from `start` through `end`, at `end`.
    static func azimuth(at end: Coordinate, from start: Coordinate) -> Double {
        Geodesic.inverse(from: start, to: end).finalAzimuth
    }
}

@Suite struct RegionGeometryAccuracyTests {
    @Test("the test's direct solution lands where the inverse says", arguments: [1.0, 1_000, 50_000, 500_000])
    func directSolution(distance: Double) {
        var random = SplitMix64(seed: 5)
        for _ in 0..<50 {
            let start = Coordinate(
                latitude: Double.random(in: -89.9...89.9, using: &random),
                longitude: Double.random(in: -180...180, using: &random)
            )
            let azimuth = Double.random(in: -180...180, using: &random)
            let end = GeodesicWalk.destination(from: start, azimuth: azimuth, distance: distance)
            let solved = Geodesic.inverse(from: start, to: end)
            #expect(abs(solved.distance - distance) < 1e-7)
            #expect(abs((solved.initialAzimuth - azimuth).remainder(dividingBy: 360)) * distance / 57.3 < 1e-7)
        }
    }
}

extension RegionGeometryAccuracyTests {
    /// A convex hexagon of vertices `radius` metres from `center` (jittered azimuths), listed clockwise, so
    /// that the inside is to the right of every edge.
    static func hexagon(around center: Coordinate, radius: Double, using random: inout SplitMix64) -> [Coordinate] {
        let start = Double.random(in: 0..<60, using: &random)
        var ring = (0..<6).map { index in
            GeodesicWalk.destination(
                from: center,
                azimuth: start + 60 * Double(index) + Double.random(in: -10...10, using: &random),
                distance: radius
            )
        }
        ring.append(ring[0])
        return ring
    }

    /// How far a geodesic edge may bow away from the straight segment of the projection, metres, for a
    /// polygon `size` metres from its center: 0.02 mm at 50 km, growing as the fourth power of the size
    /// (0.3 mm at 100 km, 1.2 cm at 250 km, 19 cm at 500 km: GeographicLib's geodesics give the same).
    static func straightness(_ size: Double) -> Double { 2.2e-5 * pow(size / 50_000, 4) }

    /// The error of a distance `h` read in the metric of the plane at the point: h² ρ / R², R the earth's
    /// radius (2.5 mm at 1 km from an edge 100 km from the center, 25 cm at 10 km).
    static func metricError(_ h: Double, size: Double) -> Double { 1.2 * h * h * size / (6_371_000 * 6_371_000) }

    @Test(
        "points on geodesic edges and at known distances from them, against the documented bounds",
        arguments: [10_000.0, 50_000, 100_000, 250_000, 450_000]
    )
    func distancesFromGeodesicEdges(radius: Double) throws {
        var random = SplitMix64(seed: UInt64(radius))
        var worst = (onEdge: 0.0, near: 0.0)
        for latitude in [0.0, 30, 50, 70, 80, -45, 89.5] {
            for longitude in [10.0, 179.5] {
                let center = Coordinate(latitude: latitude, longitude: longitude)
                let ring = Self.hexagon(around: center, radius: radius, using: &random)
                let region = try PreparedRegion(Region(id: "hexagon", shape: .polygons([[ring]])))
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let edge = Geodesic.inverse(from: a, to: b)
                    for fraction in [0.3, 0.5, 0.7] {
                        let foot = GeodesicWalk.destination(
                            from: a,
                            azimuth: edge.initialAzimuth,
                            distance: fraction * edge.distance
                        )
                        let along = GeodesicWalk.azimuth(at: foot, from: a)
                        for h in [0.0, 1, 20, 100, 1_000] {
                            let inside = GeodesicWalk.destination(from: foot, azimuth: along + 90, distance: h)
                            let outside = GeodesicWalk.destination(from: foot, azimuth: along - 90, distance: h)
                            let bound = Self.straightness(region.size) + Self.metricError(h, size: region.size) + 1e-7
                            for (point, expected) in [(inside, -h), (outside, h)] {
                                let error = abs(region.signedDistance(to: point) - expected)
                                #expect(error <= bound, "\(point): \(expected) m from an edge, error \(error) m")
                                if h == 0 {
                                    worst.onEdge = max(worst.onEdge, error)
                                } else if h <= 100 {
                                    worst.near = max(worst.near, error)
                                }
                            }
                        }
                    }
                }
            }
        }
        print(
            "regions: polygons \(Int(radius / 1000)) km around: points on geodesic edges within \(worst.onEdge) m, "
                + "points up to 100 m from them within \(worst.near) m"
        )
    }
}
