import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@Suite struct RegionIndexTests {
    /// Random regions around `center`: circles of 50 m to 5 km and star-shaped polygons of 20 to 200
    /// vertices reaching 1 to 10 km from their centers (vertices placed on the local tangent plane).
    static func randomRegions(
        named prefix: String = "r",
        circles: Int,
        polygons: Int,
        latitudes: ClosedRange<Double>,
        longitudes: ClosedRange<Double>,
        using random: inout SplitMix64
    ) throws -> [PreparedRegion] {
        var regions: [PreparedRegion] = []
        for index in 0..<(circles + polygons) {
            let center = Coordinate(
                latitude: Double.random(in: latitudes, using: &random),
                longitude: Double.random(in: longitudes, using: &random).remainder(dividingBy: 360)
            )
            let shape: RegionShape
            if index < circles {
                shape = .circle(center: center, radius: Double.random(in: 50...5_000, using: &random))
            } else {
                shape = .polygons([[starPolygon(around: center, using: &random)]])
            }
            regions.append(try PreparedRegion(Region(id: "\(prefix)\(index)", shape: shape)))
        }
        return regions
    }

    static func starPolygon(around center: Coordinate, using random: inout SplitMix64) -> [Coordinate] {
        let count = Int.random(in: 20...200, using: &random)
        let reach = Double.random(in: 1_000...10_000, using: &random)
        let metresPerDegree = 111_320.0
        var ring = (0..<count).map { index in
            let azimuth = (Double(index) + Double.random(in: 0..<0.9, using: &random)) / Double(count) * 2 * .pi
            let distance = reach * Double.random(in: 0.3...1, using: &random)
            var longitude =
                center.longitude + distance * sin(azimuth) / (metresPerDegree * cos(center.latitude * .pi / 180))
            longitude = longitude.remainder(dividingBy: 360)
            return Coordinate(
                latitude: center.latitude + distance * cos(azimuth) / metresPerDegree,
                longitude: longitude
            )
        }
        ring.append(ring[0])
        return ring
    }

    /// The slot and signed distance of every region within `margin` of `point`, by brute force: each
    /// region's signed distance, skipping those whose center is farther than 1.05 × (size + margin) + 100 m
    /// on a local plane (within 0.1 % of the geodesic at these distances, away from the poles).
    static func bruteForce(
        _ index: RegionIndex,
        _ regions: [PreparedRegion],
        near point: Coordinate,
        within margin: Double
    ) -> [Int32: Double] {
        var found: [Int32: Double] = [:]
        for region in regions {
            let north = (point.latitude - region.center.latitude) * 111_000
            let east =
                (point.longitude - region.center.longitude).remainder(dividingBy: 360) * 111_320
                * cos((point.latitude + region.center.latitude) / 2 * .pi / 180)
            let reach = 1.05 * (region.size + margin) + 100
            guard north * north + east * east <= reach * reach else { continue }
            let distance = region.signedDistance(to: point)
            if distance <= margin, let slot = index.slot(of: region.id) { found[slot] = distance }
        }
        return found
    }

    /// Queries `index` at `point` with each margin and checks that every region the signed distances
    /// (`within`, by slot, for the largest margin) put within it is listed once.
    static func check(
        _ index: RegionIndex,
        at point: Coordinate,
        margins: [Double],
        within: [Int32: Double],
        candidates: inout [Int32]
    ) -> (within: Int, candidates: Int) {
        var counts = (within: 0, candidates: 0)
        for margin in margins {
            candidates.removeAll(keepingCapacity: true)
            index.candidates(near: point, within: margin, into: &candidates)
            let expected = Set(within.filter { $0.value <= margin }.keys)
            let listed = Set(candidates)
            #expect(listed.count == candidates.count, "duplicates at \(point), margin \(margin)")
            #expect(
                expected.isSubset(of: listed),
                "\(point), margin \(margin): missing \(expected.subtracting(listed))"
            )
            counts.within += expected.count
            counts.candidates += candidates.count
        }
        return counts
    }

    @Test("every region within the margin is a candidate, once: 10,000 random regions, 3,000 points")
    func candidatesAreASuperset() throws {
        var random = SplitMix64(seed: 20_261_121)
        let latitudes = 51.0...53.0
        let longitudes = 9.0...12.0
        let regions = try Self.randomRegions(
            circles: 9_000,
            polygons: 1_000,
            latitudes: latitudes,
            longitudes: longitudes,
            using: &random
        )
        let index = RegionIndex(regions)
        #expect(index.count == 10_000)
        var points = (0..<2_000).map { _ in
            Coordinate(
                latitude: Double.random(in: latitudes, using: &random),
                longitude: Double.random(in: longitudes, using: &random)
            )
        }
        // Points just inside the margin of 20 m around circles: the edge of what must be found.
        for _ in 0..<1_000 {
            let region = regions[Int.random(in: 0..<9_000, using: &random)]
            points.append(
                GeodesicWalk.destination(
                    from: region.center,
                    azimuth: Double.random(in: -180...180, using: &random),
                    distance: region.size + 19.99
                )
            )
        }
        var candidates: [Int32] = []
        candidates.reserveCapacity(1_000)
        var found = (within: 0, candidates: 0, queries: 0)
        for point in points {
            let within = Self.bruteForce(index, regions, near: point, within: 500)
            let counts = Self.check(index, at: point, margins: [0, 20, 500], within: within, candidates: &candidates)
            found.within += counts.within
            found.candidates += counts.candidates
            found.queries += 3
        }
        // The index narrows 10,000 regions down to a few per fix.
        #expect(found.candidates < 20 * found.queries)
        #expect(found.within > points.count)
        print(
            "regions: \(found.queries) queries over 10,000 regions: \(found.within) regions within the margin, "
                + "\(found.candidates) candidates"
        )
    }

    @Test("regions across the antimeridian, near and around the poles, wide ones and wide queries")
    func everywhereOnEarth() throws {
        var random = SplitMix64(seed: 7)
        var regions: [PreparedRegion] = []
        for (name, circles, polygons, latitudes, longitudes) in [
            ("antimeridian", 300, 40, -20.0 ... -10.0, 179.0...181.0),
            ("north", 200, 20, 84.0...86.0, -180.0...180.0),
            ("south", 50, 10, -89.9 ... -86.0, -180.0...180.0),
        ] {
            regions += try Self.randomRegions(
                named: name,
                circles: circles,
                polygons: polygons,
                latitudes: latitudes,
                longitudes: longitudes,
                using: &random
            )
        }
        regions.append(
            try PreparedRegion(
                Region(id: "north-pole", shape: .circle(center: .init(latitude: 90, longitude: 0), radius: 50_000))
            )
        )
        regions.append(
            try PreparedRegion(
                Region(
                    id: "large",
                    shape: .polygons([[RegionGeometryTests.box(south: -19, west: 178, north: -12, east: -178)]])
                )
            )
        )
        let index = RegionIndex(regions)
        var points: [Coordinate] = []
        for _ in 0..<300 {
            points.append(
                Coordinate(
                    latitude: .random(in: -20 ... -10, using: &random),
                    longitude: .random(in: 179...181, using: &random)
                )
            )
            points.append(
                Coordinate(
                    latitude: .random(in: 84...90, using: &random),
                    longitude: .random(in: -180...180, using: &random)
                )
            )
            points.append(
                Coordinate(
                    latitude: .random(in: -90 ... -86, using: &random),
                    longitude: .random(in: -180...180, using: &random)
                )
            )
        }
        points += [
            Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 17),
            Coordinate(latitude: 85, longitude: 180),
        ]
        var candidates: [Int32] = []
        for point in points {
            var within: [Int32: Double] = [:]
            for region in regions {
                let distance = region.signedDistance(to: point)
                if distance <= 200_000 { within[index.slot(of: region.id)!] = distance }
            }
            _ = Self.check(index, at: point, margins: [0, 20, 5_000, 200_000], within: within, candidates: &candidates)
        }
    }
}
