import WaymarkCore
import WaymarkTestSupport

/// A pair of points for the geodesy oracle, with the kind of case it covers.
struct GeodesyPair: CustomStringConvertible {
    var kind: String
    var start: Coordinate
    var end: Coordinate

    var description: String {
        "\(kind): (\(start.latitude), \(start.longitude)) → (\(end.latitude), \(end.longitude))"
    }

    /// The oracle's input line: the coordinates with every digit (Swift's shortest round-trip form).
    var csvLine: String { "\(start.latitude),\(start.longitude),\(end.latitude),\(end.longitude)" }
}

/// The pairs the oracle test compares, the same on every run: fixed corner cases plus pseudo-random ones
/// from a seeded ``SplitMix64`` in every regime of the algorithm.
enum GeodesyPairs {
    /// Degrees of latitude per metre, roughly: enough to place points a given distance apart.
    static let degreesPerMetre = 1 / 111_000.0

    static func all() -> [GeodesyPair] {
        var generator = SplitMix64(seed: 0x6765_6F64_6573_79)
        var pairs: [GeodesyPair] = []
        pairs += veryShort(using: &generator)
        pairs += short(using: &generator)
        pairs += random("medium (up to 1,400 km)", count: 50, spanDegrees: 9, using: &generator)
        pairs += long(using: &generator)
        pairs += antimeridian(using: &generator)
        pairs += polar(using: &generator)
        pairs += equatorial(using: &generator)
        pairs += nearlyAntipodal(using: &generator)
        pairs += meridional(using: &generator)
        return pairs
    }

    static func point(using generator: inout SplitMix64) -> Coordinate {
        Coordinate(
            latitude: Double.random(in: -90...90, using: &generator),
            longitude: Double.random(in: -180...180, using: &generator)
        )
    }

    /// `start` moved by up to `metres` north-south and east-west (longitude wrapped to -180 ... 180).
    static func near(
        _ start: Coordinate,
        withinMetres metres: Double,
        using generator: inout SplitMix64
    ) -> Coordinate {
        let span = metres * degreesPerMetre
        let latitude = min(90, max(-90, start.latitude + Double.random(in: -span...span, using: &generator)))
        let longitude = start.longitude + Double.random(in: -span...span, using: &generator)
        return Coordinate(latitude: latitude, longitude: longitude.remainder(dividingBy: 360))
    }

    private static func veryShort(using generator: inout SplitMix64) -> [GeodesyPair] {
        let kind = "very short (< 1 m)"
        var pairs: [GeodesyPair] = []
        // Identical points, at ordinary places and at the singular ones.
        let places = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 48.99, longitude: 12.1),
            Coordinate(latitude: -33.86, longitude: 151.21), Coordinate(latitude: 90, longitude: 0),
            Coordinate(latitude: -90, longitude: 45), Coordinate(latitude: 0, longitude: 180),
            Coordinate(latitude: 12.5, longitude: -180),
        ]
        pairs += places.map { GeodesyPair(kind: kind + ", identical", start: $0, end: $0) }
        pairs.append(
            GeodesyPair(
                kind: kind + ", identical across ±180",
                start: Coordinate(latitude: 10, longitude: 180),
                end: Coordinate(latitude: 10, longitude: -180)
            )
        )
        // One millimetre apart: north, east, and diagonally.
        let millimetre = 0.001 * degreesPerMetre
        for place in places.prefix(3) {
            let moves = [(millimetre, 0.0), (0.0, millimetre), (millimetre * 0.7, -millimetre * 0.7)]
            for (north, east) in moves {
                let end = Coordinate(latitude: place.latitude + north, longitude: place.longitude + east)
                pairs.append(GeodesyPair(kind: kind + ", 1 mm", start: place, end: end))
            }
        }
        for _ in 0..<25 {
            let start = point(using: &generator)
            pairs.append(GeodesyPair(kind: kind, start: start, end: near(start, withinMetres: 0.7, using: &generator)))
        }
        return pairs
    }

    private static func short(using generator: inout SplitMix64) -> [GeodesyPair] {
        (0..<80).map { index in
            // Mostly at the latitudes where vehicles drive, some anywhere.
            var start = point(using: &generator)
            if index % 4 != 0 { start.latitude *= 0.75 }
            let metres = [10.0, 100, 1000, 7000][index % 4]
            return GeodesyPair(
                kind: "short (< 10 km)",
                start: start,
                end: near(start, withinMetres: metres, using: &generator)
            )
        }
    }

    private static func random(
        _ kind: String,
        count: Int,
        spanDegrees: Double,
        using generator: inout SplitMix64
    ) -> [GeodesyPair] {
        (0..<count).map { _ in
            let start = point(using: &generator)
            return GeodesyPair(
                kind: kind,
                start: start,
                end: near(start, withinMetres: spanDegrees / degreesPerMetre, using: &generator)
            )
        }
    }

    private static func long(using generator: inout SplitMix64) -> [GeodesyPair] {
        (0..<60).map { _ in
            GeodesyPair(
                kind: "long (anywhere to anywhere)",
                start: point(using: &generator),
                end: point(using: &generator)
            )
        }
    }
}
