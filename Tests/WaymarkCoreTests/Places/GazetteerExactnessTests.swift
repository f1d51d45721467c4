import Foundation
import PlacesOracle
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The acceptance of the nearest place: the gazetteer of `data/places/`, as the agent maps it, against a
/// brute-force search over all 170,391 places (``PlacesOracle``) for 15,000 seeded points and more.
@Suite struct GazetteerExactnessTests {
    static let gazetteer: Result<Gazetteer, any Error> = Result {
        let path = try PlacesFixture.file.get()
        return try Gazetteer(copying: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }
    static let oracle: Result<PlacesOracle, any Error> = Result { PlacesOracle(tsv: try PlacesFixture.citiesText()) }

    @Test("every place of the source is in the file, with its name and its very coordinates")
    func holdsEverySourcePlace() throws {
        let gazetteer = try Self.gazetteer.get()
        let oracle = try Self.oracle.get()
        #expect(gazetteer.count == 170_391 && oracle.entries.count == 170_391)
        var byID: [UInt32: PlacesOracle.Entry] = [:]
        for entry in oracle.entries { byID[entry.geonameID] = entry }
        var mismatches = 0
        for index in 0..<gazetteer.count {
            let entry = gazetteer.entry(at: index)
            let source = byID[entry.geonameID]
            if source?.name != entry.name || source?.coordinate != entry.coordinate { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("the nearest place equals the brute force: uniform, near places, antimeridian, poles")
    func equalsBruteForce() throws {
        let gazetteer = try Self.gazetteer.get()
        let oracle = try Self.oracle.get()
        let finder = PlaceFinder(gazetteer: gazetteer, settings: PlaceSettings(maxDistance: .infinity))
        var failures: [String] = []
        var ties = 0
        for point in Self.points(oracle) {
            guard let found = finder.place(at: point) else {
                failures.append("\(point): no answer")
                continue
            }
            let expected = oracle.nearest(to: point)
            guard abs(found.distance - expected.distance) <= 0.001 else {
                failures.append(
                    "\(point): \(found.name) at \(found.distance) m, brute force \(expected.entry.name) at "
                        + "\(expected.distance) m"
                )
                continue
            }
            if found.geonameID != expected.entry.geonameID { ties += 1 }
        }
        #expect(failures.isEmpty, "\(failures.count) points differ: \(failures.prefix(10))")
        // Ties are allowed (either place), but few: places at the same distance to the millimetre.
        #expect(ties < 20)
    }

    /// 10,000 points uniform on the sphere, 5,000 within 50 km of random places, and 1,000 by the antimeridian
    /// and the poles; seeded, the same on every run.
    static func points(_ oracle: PlacesOracle) -> [Coordinate] {
        var random = SplitMix64(seed: 20)
        var points: [Coordinate] = []
        for _ in 0..<10_000 {
            let z = Double.random(in: -1...1, using: &random)
            points.append(
                Coordinate(
                    latitude: asin(z) * 180 / .pi,
                    longitude: Double.random(in: -180..<180, using: &random)
                )
            )
        }
        for _ in 0..<5_000 {
            let place = oracle.entries[Int.random(in: 0..<oracle.entries.count, using: &random)].coordinate
            let distance = Double.random(in: 0...50_000, using: &random)
            let azimuth = Double.random(in: 0..<(2 * .pi), using: &random)
            let latitude = min(90, max(-90, place.latitude + distance * cos(azimuth) / 111_000))
            let scale = max(0.01, cos(latitude * .pi / 180))
            points.append(
                Coordinate(latitude: latitude, longitude: place.longitude + distance * sin(azimuth) / (111_000 * scale))
            )
        }
        for _ in 0..<600 {
            let side: Double = Bool.random(using: &random) ? 180 : -180
            points.append(
                Coordinate(
                    latitude: Double.random(in: -75...75, using: &random),
                    longitude: side - Double(signOf: side, magnitudeOf: Double.random(in: 0...0.5, using: &random))
                )
            )
        }
        for _ in 0..<400 {
            let pole: Double = Bool.random(using: &random) ? 90 : -90
            points.append(
                Coordinate(
                    latitude: pole - Double(signOf: pole, magnitudeOf: Double.random(in: 0...12, using: &random)),
                    longitude: Double.random(in: -180...180, using: &random)
                )
            )
        }
        points += [
            Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0),
            Coordinate(latitude: 78.2232, longitude: 15.6267), Coordinate(latitude: -16.5, longitude: 180),
            Coordinate(latitude: -16.5, longitude: -180), Coordinate(latitude: 65.0, longitude: 179.999_999),
            Coordinate(latitude: 49.013_43, longitude: 12.101_62),
            Coordinate(latitude: 48.916_67, longitude: 11.883_33),
        ]
        return points
    }
}
