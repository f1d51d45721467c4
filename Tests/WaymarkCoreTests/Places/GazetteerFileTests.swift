import Testing
import WaymarkCore
import WaymarkTestSupport

/// A small gazetteer built from source text: what the file holds, and every damaged file refused by name.
@Suite struct GazetteerFileTests {
    static let countries = "iso\tname\nDE\tGermany\nFJ\tFiji\nAQ\tAntarctica\n"
    static let cities = """
        geonameid\tname\tlatitude\tlongitude\tcountry\tadmin1\tpopulation\ttimezone
        2849483\tRegensburg\t49.01513\t12.10161\tDE\t02\t129151\tEurope/Berlin
        2891834\tKelheim\t48.91725\t11.88618\tDE\t02\t15963\tEurope/Berlin
        2202064\tLabasa\t-16.41667\t179.38333\tFJ\t03\t24187\tPacific/Fiji
        7000001\tSüdpol\t-89.99\t-180\tAQ\t\t1000\t

        """

    static func built() throws -> [UInt8] {
        try GazetteerBuilder.build(
            cities: Array(cities.utf8),
            citiesName: "cities.tsv",
            countries: Array(countries.utf8),
            countriesName: "countries.tsv"
        )
    }

    @Test func holdsThePlacesOfItsSource() throws {
        let gazetteer = try Gazetteer(copying: try Self.built(), file: "places.bin")
        #expect(gazetteer.count == 4)
        let entries = (0..<gazetteer.count).map { gazetteer.entry(at: $0) }
        let labasa = try #require(entries.first { $0.geonameID == 2_202_064 })
        #expect(labasa.name == "Labasa" && labasa.country == "FJ" && labasa.countryName == "Fiji")
        #expect(labasa.admin1 == "03" && labasa.timezone == "Pacific/Fiji")
        #expect(labasa.coordinate == Coordinate(latitude: -16.41667, longitude: 179.38333))
        let pole = try #require(entries.first { $0.geonameID == 7_000_001 })
        #expect(pole.name == "Südpol" && pole.admin1 == nil && pole.timezone == nil)
    }

    @Test(
        "the nearest place, across the antimeridian and at the pole",
        arguments: [
            (Coordinate(latitude: 48.95, longitude: 11.9), "Kelheim"),
            (Coordinate(latitude: 49.0, longitude: 12.1), "Regensburg"),
            (Coordinate(latitude: -16.4, longitude: -179.9), "Labasa"),
            (Coordinate(latitude: -90, longitude: 45), "Südpol"),
            (Coordinate(latitude: -89.5, longitude: 0), "Südpol"),
        ]
    )
    func nearest(point: Coordinate, name: String) throws {
        let gazetteer = try Gazetteer(copying: try Self.built(), file: "places.bin")
        let found = try #require(gazetteer.nearest(to: point))
        #expect(gazetteer.entry(at: found.index).name == name)
        let expected = (0..<gazetteer.count).map {
            Geodesic.distance(from: gazetteer.entry(at: $0).coordinate, to: point)
        }.min()
        #expect(found.distance == expected)
    }

    @Test func outOfRangeHasNoPlace() throws {
        let gazetteer = try Gazetteer(copying: try Self.built(), file: "places.bin")
        #expect(gazetteer.nearest(to: Coordinate(latitude: 91, longitude: 0)) == nil)
        #expect(gazetteer.nearest(to: Coordinate(latitude: .nan, longitude: 0)) == nil)
    }

    enum Damage: String, CaseIterable, Sendable {
        case empty, truncated, extended, wrongVersion, randomBytes, flippedByte, badHeader
    }

    @Test("a damaged file is refused with an error that names it", arguments: Damage.allCases)
    func damagedFileIsRefused(damage: Damage) throws {
        var bytes = try Self.built()
        var random = SplitMix64(seed: 7)
        let expected: GazetteerError.Code
        switch damage {
        case .empty:
            bytes = []
            expected = .truncated
        case .truncated:
            bytes.removeLast(bytes.count / 3)
            expected = .truncated
        case .extended:
            bytes += [UInt8](repeating: 0, count: 32)
            expected = .truncated
        case .wrongVersion:
            bytes[8] = 2
            expected = .unsupportedVersion
        case .randomBytes:
            bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &random) }
            expected = .notAGazetteer
        case .flippedByte:
            bytes[bytes.count / 2] ^= 0x10
            expected = .corrupt
        case .badHeader:
            bytes[12] = 0xFF
            expected = .corrupt
        }
        #expect {
            try Gazetteer(copying: bytes, file: "/tmp/places.bin")
        } throws: { error in
            guard let error = error as? GazetteerError else { return false }
            return error.code == expected && error.description.hasPrefix("/tmp/places.bin: ")
                && error.description.contains("scripts/build-places.sh")
        }
    }

    @Test(
        "a source line that cannot be read names its line",
        arguments: [
            ("1\tA\t91\t0\tDE\t\t0\tEurope/Berlin", "line 2: latitude 91"),
            ("1\tA\t1.123456789\t0\tDE\t\t0\tEurope/Berlin", "line 2: latitude 1.123456789"),
            ("1\tA\t1\t181\tDE\t\t0\tEurope/Berlin", "line 2: longitude 181"),
            ("1\tA\t1\t1\tXX\t\t0\tEurope/Berlin", "line 2: country XX"),
            ("x\tA\t1\t1\tDE\t\t0\tEurope/Berlin", "line 2: geonameid x"),
            ("1\tA\t1\t1\tDE", "line 2: expected 8 tab-separated fields"),
        ]
    )
    func malformedSource(line: String, message: String) {
        #expect {
            try GazetteerBuilder.build(
                cities: Array("header\n\(line)\n".utf8),
                citiesName: "cities.tsv",
                countries: Array(Self.countries.utf8),
                countriesName: "countries.tsv"
            )
        } throws: { error in
            (error as? GazetteerError)?.description.hasPrefix("cities.tsv: \(message)") == true
        }
    }
}
