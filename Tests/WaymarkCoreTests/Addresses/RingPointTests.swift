import Testing

@testable import WaymarkCore

/// Where a building's outline stands (1e-7 degree units, as in the builder): its centroid when inside, else a
/// point inside it, never in a courtyard; the mean of the corners for rings without area.
@Suite struct RingPointTests {
    /// Closes `corners` (x, y) into a ring at an offset, as a real building is far from 0, 0.
    static func ring(_ corners: [(Double, Double)]) -> [(x: Double, y: Double)] {
        (corners + [corners[0]]).map { (x: $0.0 + 249_414_566, y: $0.1 + 601_713_198) }
    }

    static func contains(_ ring: [(x: Double, y: Double)], _ point: (x: Double, y: Double)) -> Bool {
        var inside = false
        for index in 0..<(ring.count - 1) {
            let (a, b) = (ring[index], ring[index + 1])
            if (a.y > point.y) != (b.y > point.y), point.x < a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y) {
                inside.toggle()
            }
        }
        return inside
    }

    @Test(
        "the point, and whether it is the centroid",
        arguments: [
            // A square: its centre.
            ("square", [(0.0, 0.0), (100, 0), (100, 100), (0, 100)], (50.0, 50.0)),
            // A U open to the north, 300 wide, its base 20 high: the centroid (150, 95.7) is in the courtyard;
            // the answer is in the widest arm along that latitude (both 100 wide: the first, west).
            ("U", [(0, 0), (300, 0), (300, 200), (200, 200), (200, 20), (100, 20), (100, 200), (0, 200)], (50, 95.7)),
            // A line walked there and back: no area, the mean of the corners.
            ("line", [(0, 0), (100, 0), (200, 0), (100, 0)], (100, 0)),
        ]
    )
    func point(name: String, corners: [(Double, Double)], expected: (Double, Double)) {
        let ring = Self.ring(corners)
        let point = RingPoint.point(inside: ring)
        #expect(abs(point.x - (expected.0 + 249_414_566)) < 1e-6, "\(name): \(point)")
        // The U's answer lies on the centroid's latitude: (10 × 6,000 + 110 × 36,000) / 42,000 (area-weighted).
        if name == "U" {
            #expect(abs(point.y - (601_713_198 + 4_020_000.0 / 42_000)) < 1e-6)
        } else {
            #expect(abs(point.y - (expected.1 + 601_713_198)) < 1e-6, "\(name): \(point)")
        }
        if name != "line" { #expect(Self.contains(ring, point), "\(name): outside") }
    }
}
