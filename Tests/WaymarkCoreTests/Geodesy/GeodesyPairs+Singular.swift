import WaymarkCore
import WaymarkTestSupport

extension GeodesyPairs {
    /// Pairs on either side of the ±180° meridian, with longitudes written as 180, -180 and beyond.
    static func antimeridian(using generator: inout SplitMix64) -> [GeodesyPair] {
        let kind = "antimeridian"
        var pairs = [
            GeodesyPair(
                kind: kind + ", ±180 exactly",
                start: Coordinate(latitude: 30, longitude: 180),
                end: Coordinate(latitude: 31, longitude: -180)
            ),
            GeodesyPair(
                kind: kind + ", ±180 exactly",
                start: Coordinate(latitude: -52, longitude: -180),
                end: Coordinate(latitude: -52, longitude: 179.9)
            ),
            GeodesyPair(
                kind: kind + ", longitudes beyond ±180",
                start: Coordinate(latitude: 5, longitude: 539.5),
                end: Coordinate(latitude: 5.5, longitude: -539.5)
            ),
        ]
        for _ in 0..<30 {
            let start = Coordinate(
                latitude: Double.random(in: -80...80, using: &generator),
                longitude: 180 - Double.random(in: 0...2, using: &generator)
            )
            let end = Coordinate(
                latitude: Double.random(in: -80...80, using: &generator),
                longitude: -180 + Double.random(in: 0...2, using: &generator)
            )
            pairs.append(GeodesyPair(kind: kind, start: start, end: end))
        }
        return pairs
    }

    /// Pairs with a point exactly at a pole, or within 5 km of one.
    static func polar(using generator: inout SplitMix64) -> [GeodesyPair] {
        var pairs = [
            GeodesyPair(
                kind: "polar, pole to pole",
                start: Coordinate(latitude: 90, longitude: 0),
                end: Coordinate(latitude: -90, longitude: 0)
            ),
            GeodesyPair(
                kind: "polar, pole to pole",
                start: Coordinate(latitude: -90, longitude: 30),
                end: Coordinate(latitude: 90, longitude: -150)
            ),
            GeodesyPair(
                kind: "polar, pole to equator",
                start: Coordinate(latitude: 90, longitude: 0),
                end: Coordinate(latitude: 0, longitude: 77)
            ),
            GeodesyPair(
                kind: "polar, equator to pole",
                start: Coordinate(latitude: 0, longitude: -20),
                end: Coordinate(latitude: -90, longitude: 100)
            ),
        ]
        for index in 0..<40 {
            let north = index % 2 == 0
            let other = point(using: &generator)
            if index < 20 {
                let pole = Coordinate(latitude: north ? 90 : -90, longitude: other.longitude + 10)
                pairs.append(GeodesyPair(kind: "polar, exactly at a pole", start: pole, end: other))
            } else {
                let offset = Double.random(in: 0...0.05, using: &generator)
                let start = Coordinate(latitude: north ? 90 - offset : -90 + offset, longitude: other.longitude)
                // To a point near the pole (across it, sometimes), or far away.
                let end = index % 4 == 0 ? other : near(start, withinMetres: 5_000, using: &generator)
                pairs.append(GeodesyPair(kind: "polar, near a pole", start: start, end: end))
            }
        }
        return pairs
    }

    /// Pairs on the equator: short, long, and nearly antipodal on both sides of λ12 = (1 - f) 180°, where
    /// the shortest path leaves the equator.
    static func equatorial(using generator: inout SplitMix64) -> [GeodesyPair] {
        let kind = "equatorial"
        var pairs: [GeodesyPair] = []
        for difference in [0.001, 1, 45, 90, 135, 179, 179.3, 179.39, 179.396, 179.3966, 179.4, 179.5, 179.9, 180] {
            let start = Coordinate(latitude: 0, longitude: 10)
            pairs.append(
                GeodesyPair(kind: kind, start: start, end: Coordinate(latitude: 0, longitude: 10 + difference))
            )
            pairs.append(
                GeodesyPair(kind: kind, start: start, end: Coordinate(latitude: 0, longitude: 10 - difference))
            )
        }
        for _ in 0..<20 {
            let longitude = Double.random(in: -180...180, using: &generator)
            let difference = Double.random(in: 179...180, using: &generator)
            pairs.append(
                GeodesyPair(
                    kind: kind + ", nearly antipodal",
                    start: Coordinate(latitude: 0, longitude: longitude),
                    end: Coordinate(latitude: 0, longitude: longitude + difference)
                )
            )
        }
        return pairs
    }

    /// Pairs within a degree of each other's antipode, where the astroid gives Newton's start, and exact
    /// antipodes.
    static func nearlyAntipodal(using generator: inout SplitMix64) -> [GeodesyPair] {
        let kind = "nearly antipodal"
        var pairs = [
            GeodesyPair(
                kind: kind + ", exactly",
                start: Coordinate(latitude: 30, longitude: 0),
                end: Coordinate(latitude: -30, longitude: 180)
            ),
            GeodesyPair(
                kind: kind + ", exactly",
                start: Coordinate(latitude: -41.3, longitude: 174.8),
                end: Coordinate(latitude: 41.3, longitude: -5.2)
            ),
            GeodesyPair(
                kind: kind + ", exactly",
                start: Coordinate(latitude: 0.5, longitude: 0),
                end: Coordinate(latitude: -0.5, longitude: 180)
            ),
        ]
        for index in 0..<50 {
            let start = point(using: &generator)
            let spread = index < 25 ? 1.0 : 0.01
            let end = Coordinate(
                latitude: -start.latitude + Double.random(in: -spread...spread, using: &generator),
                longitude: start.longitude + 180 + Double.random(in: -spread...spread, using: &generator)
            )
            pairs.append(GeodesyPair(kind: kind, start: start, end: end))
        }
        return pairs
    }

    /// Pairs on one meridian (λ12 = 0) or on a meridian and its opposite (λ12 = 180°, over a pole).
    static func meridional(using generator: inout SplitMix64) -> [GeodesyPair] {
        (0..<30).map { index in
            let start = point(using: &generator)
            let latitude = Double.random(in: -90...90, using: &generator)
            let overPole = index % 3 == 0
            let end = Coordinate(latitude: latitude, longitude: start.longitude + (overPole ? 180 : 0))
            return GeodesyPair(kind: overPole ? "meridional, over a pole" : "meridional", start: start, end: end)
        }
    }
}
