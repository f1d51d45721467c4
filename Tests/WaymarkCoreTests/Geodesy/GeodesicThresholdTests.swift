import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite struct GeodesicThresholdTests {
    /// Nearby pairs where the local estimate applies: latitudes within ±80°, up to 0.0999° apart, across the
    /// antimeridian too.
    static func nearbyPairs(count: Int) -> [(Coordinate, Coordinate)] {
        var random = SplitMix64(seed: 20_261_121)
        return (0..<count).map { _ in
            let start = Coordinate(
                latitude: Double.random(in: -79.9...79.9, using: &random),
                longitude: Double.random(in: -180...180, using: &random)
            )
            var longitude = start.longitude + Double.random(in: -0.0999...0.0999, using: &random)
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            let end = Coordinate(
                latitude: start.latitude + Double.random(in: -0.0999...0.0999, using: &random),
                longitude: longitude
            )
            return (start, end)
        }
    }

    @Test("the local estimate is within 1e-6 of Karney's distance wherever it applies")
    func localEstimateError() throws {
        var worst = 0.0
        for (start, end) in Self.nearbyPairs(count: 20_000) {
            let estimate = try #require(Geodesic.localDistance(from: start, to: end))
            let exact = Geodesic.distance(from: start, to: end)
            guard exact > 0 else { continue }
            worst = max(worst, abs(estimate - exact) / exact)
        }
        #expect(worst < 1e-6, "worst relative error \(worst)")
        #expect(worst * 100 <= Geodesic.thresholdMargin)
    }

    @Test("the threshold test decides as the full solution does, at and around the distance")
    func decidesAsTheFullSolution() {
        for (start, end) in Self.nearbyPairs(count: 2_000) {
            let exact = Geodesic.distance(from: start, to: end)
            for threshold in [exact, exact.nextUp, exact * (1 - 1e-6), exact * (1 + 1e-6), exact / 2, exact * 2, 0] {
                #expect(
                    Geodesic.isDistance(from: start, to: end, atLeast: threshold) == (exact >= threshold),
                    "\(start) → \(end), threshold \(threshold)"
                )
            }
        }
    }

    @Test(
        "far, polar and invalid pairs have no local estimate",
        arguments: [
            (Coordinate(latitude: 49, longitude: 12), Coordinate(latitude: 49.2, longitude: 12)),
            (Coordinate(latitude: 49, longitude: 12), Coordinate(latitude: 49, longitude: 12.11)),
            (Coordinate(latitude: 80.01, longitude: 0), Coordinate(latitude: 80.02, longitude: 0)),
            (Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 0, longitude: 0)),
            (Coordinate(latitude: 0, longitude: .infinity), Coordinate(latitude: 0, longitude: 0)),
        ]
    )
    func outsideTheDomain(start: Coordinate, end: Coordinate) {
        #expect(Geodesic.localDistance(from: start, to: end) == nil)
    }

    @Test func acrossTheAntimeridian() throws {
        let west = Coordinate(latitude: -16.5, longitude: 179.98)
        let east = Coordinate(latitude: -16.5, longitude: -179.98)
        let estimate = try #require(Geodesic.localDistance(from: west, to: east))
        #expect(abs(estimate - Geodesic.distance(from: west, to: east)) < 0.01)
        #expect(Geodesic.isDistance(from: west, to: east, atLeast: 4000))
        #expect(!Geodesic.isDistance(from: west, to: east, atLeast: 4500))
    }
}
