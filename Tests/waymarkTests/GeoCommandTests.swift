import Foundation
import Testing
import WaymarkTestSupport

@Suite("waymark geo distance")
struct GeoCommandTests {
    /// The one JSON object on stdout.
    static func object(_ result: WaymarkBinary.Result) throws -> [String: Double] {
        let objects = try WaymarkBinary.events(result)
        try #require(objects.count == 1, "stdout: \(result.stdout)")
        return objects[0].compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    @Test("JFK to LHR: millimetres and 1e-9 degree, as GeographicLib computes it")
    func printsOneStableJSONObject() throws {
        let result = try WaymarkBinary.run(["geo", "distance", "40.6", "-73.8", "51.6", "-0.5"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stdout
                == #"{"distance_m":5551759.400,"initial_azimuth":51.198882846,"final_azimuth":107.821776736}"# + "\n"
        )
        #expect(result.stderr.isEmpty)
    }

    @Test("negative coordinates are plain arguments, in any position")
    func negativeCoordinates() throws {
        for arguments in [["-33.86", "151.21", "51.5", "-0.12"], ["--", "-33.86", "151.21", "51.5", "-0.12"]] {
            let result = try WaymarkBinary.run(["geo", "distance"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let object = try Self.object(result)
            // GeographicLib 2.1: s12 16988534.459735215, azi1 -40.715070653841074, azi2 -119.62855634766369.
            #expect(object["distance_m"] == 16_988_534.460)
            #expect(object["initial_azimuth"] == -40.715_070_654)
            #expect(object["final_azimuth"] == -119.628_556_348)
        }
        let southWest = try Self.object(try WaymarkBinary.run(["geo", "distance", "-1", "-2", "-3", "-4"]))
        #expect(abs((southWest["distance_m"] ?? 0) - 313_705.445) <= 0.001)
    }

    @Test("coincident points: 0 m, never -0")
    func coincidentPoints() throws {
        let result = try WaymarkBinary.run(["geo", "distance", "-0", "0", "0", "-0"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"distance_m":0.000,"#))
    }

    @Test(
        "a bad coordinate: one line on stderr naming it, exit 2",
        arguments: [
            (["91", "0", "0", "0"], "LAT1 91: must be a latitude from -90 to 90"),
            (["0", "0", "-90.5", "0"], "LAT2 -90.5: must be a latitude from -90 to 90"),
            (["0", "0", "0", "400"], "LON2 400: must be a longitude from -360 to 360"),
            (["abc", "0", "0", "0"], "LAT1 abc: not a number"),
            (["0", "nan", "0", "0"], "LON1 nan: not a number"),
            (["0", "0", "inf", "0"], "LAT2 inf: not a number"),
            (["1", "2", "3"], "expected 4 numbers, LAT1 LON1 LAT2 LON2, got 3"),
            (["1", "2", "3", "4", "5"], "expected 4 numbers, LAT1 LON1 LAT2 LON2, got 5"),
            (["1", "2", "--frobnicate", "4"], "LAT2 --frobnicate: not a number"),
        ]
    )
    func badCoordinates(arguments: [String], message: String) throws {
        let result = try WaymarkBinary.run(["geo", "distance"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("waymark geo distance: \(message)") == true, "stderr: \(result.stderr)")
    }

    @Test("geo is a group: its help lists distance")
    func help() throws {
        let group = try WaymarkBinary.run(["geo", "--help"])
        #expect(group.status == 0)
        #expect(group.stdout.contains("distance"))
        let distance = try WaymarkBinary.run(["geo", "distance", "--help"])
        #expect(distance.status == 0)
        #expect(distance.stdout.contains("USAGE: waymark geo distance"))
    }
}

@Suite("waymark geo declination")
struct GeoDeclinationCommandTests {
    /// The one JSON object on stdout, after checking that the command succeeded and said nothing else.
    static func run(_ arguments: [String]) throws -> [String: Any] {
        let result = try WaymarkBinary.run(["geo", "declination"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        let objects = try WaymarkBinary.events(result)
        try #require(objects.count == 1, "stdout: \(result.stdout)")
        return objects[0]
    }

    static func number(_ object: [String: Any], _ key: String) throws -> Double {
        try #require((object[key] as? NSNumber)?.doubleValue, "\(key) in \(object)")
    }

    static let elementKeys: Set<String> = [
        "declination", "inclination", "horizontal_intensity", "total_intensity", "north", "east", "down",
    ]
    static let keys: Set<String> = elementKeys.union(elementKeys.map { $0 + "_rate" }).union([
        "zone", "declination_uncertainty", "within_validity", "model", "lat", "lon", "height_m", "year",
    ])

    /// All 12 points of NOAA's WMM2025 report table (Tests/Fixtures/wmm/WMM2025_TestValues.txt: year, height
    /// in km, lat, lon, X, Y, Z, H, F, I, D, GV, Ẋ, Ẏ, Ż, Ḣ, Ḟ, İ, Ḋ), through the binary, to the printed
    /// 0.1 nT and 0.01°, plus the 1e-3 nT and 1e-6° the command prints to.
    @Test("NOAA's 12 report points, to their printed precision")
    func reportTable() throws {
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/wmm/WMM2025_TestValues.txt")
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: " ").compactMap { Double($0) } }
        try #require(rows.count == 12 && rows.allSatisfy { $0.count == 19 })
        let nT = 0.05 + 5e-4
        let degrees = 0.005 + 5e-7
        for row in rows {
            let arguments = ["--lat", "\(row[2])", "--lon", "\(row[3])", "--height-m", "\(row[1] * 1_000)"]
            let object = try Self.run(arguments + ["--year", "\(row[0])"])
            let published: [(String, Double, Double)] = [
                ("north", row[4], nT), ("east", row[5], nT), ("down", row[6], nT),
                ("horizontal_intensity", row[7], nT), ("total_intensity", row[8], nT),
                ("inclination", row[9], degrees), ("declination", row[10], degrees),
                ("north_rate", row[12], nT), ("east_rate", row[13], nT), ("down_rate", row[14], nT),
                ("horizontal_intensity_rate", row[15], nT), ("total_intensity_rate", row[16], nT),
                ("inclination_rate", row[17], degrees), ("declination_rate", row[18], degrees),
            ]
            for (key, value, tolerance) in published {
                let ours = try Self.number(object, key)
                #expect(abs(ours - value) <= tolerance, "\(arguments) \(row[0]): \(key) \(ours), NOAA \(value)")
            }
            if row[11].isNaN {
                #expect(Set(object.keys) == Self.keys, "\(object.keys.sorted())")
            } else {
                #expect(Set(object.keys) == Self.keys.union(["grid_variation", "grid_variation_rate"]))
                #expect(abs(try Self.number(object, "grid_variation") - row[11]) <= degrees)
                #expect(try Self.number(object, "grid_variation_rate") == Self.number(object, "declination_rate"))
            }
            #expect(try Self.number(object, "lat") == row[2])
            #expect(try Self.number(object, "lon") == row[3])
            #expect(try Self.number(object, "height_m") == row[1] * 1_000)
            #expect(try Self.number(object, "year") == row[0])
            #expect(object["model"] as? String == "WMM2025")
            #expect(object["zone"] as? String == "normal")
            #expect(object["within_validity"] as? Bool == true)
        }
    }

    @Test("negative values are plain option values: --lat -80 --lon -120 is NOAA's -80, 240")
    func negativeValues() throws {
        let spaced = try WaymarkBinary.run(["geo", "declination", "--lat", "-80", "--lon", "-120", "--year", "2025"])
        let joined = try WaymarkBinary.run(["geo", "declination", "--lat=-80", "--lon=-120", "--year=2025"])
        #expect(spaced.status == 0 && joined.status == 0, "\(spaced.stderr) \(joined.stderr)")
        #expect(spaced.stdout == joined.stdout)
        let object = try Self.run(["--lon", "-120", "--lat", "-80", "--year", "2025", "--height-m", "-0"])
        // NOAA: D 68.78, I -72.00, GV -51.22, H 16898.1 nT.
        #expect(abs(try Self.number(object, "declination") - 68.78) <= 0.005)
        #expect(abs(try Self.number(object, "inclination") - -72.00) <= 0.005)
        #expect(abs(try Self.number(object, "grid_variation") - -51.22) <= 0.005)
        #expect(abs(try Self.number(object, "horizontal_intensity") - 16_898.1) <= 0.05)
        #expect(try Self.number(object, "lat") == -80)
        let south = try Self.run(["--lat", "-45.5", "--lon", "-73.98", "--year", "2026.5"])
        #expect(try Self.number(south, "lat") == -45.5)
        #expect(try Self.number(south, "lon") == -73.98)
    }

    @Test("--date is a UTC date at midnight; without --date or --year, today's UTC date")
    func dates() throws {
        let july = try Self.run(["--lat", "51.5", "--lon", "-0.1", "--date", "2027-07-02"])
        // 2 July is day 183 of 365: 2027 + 182/365.
        #expect(abs(try Self.number(july, "year") - (2027 + 182.0 / 365)) < 1e-6)
        let byYear = try Self.run(["--lat", "51.5", "--lon", "-0.1", "--year", "\(2027 + 182.0 / 365)"])
        #expect(abs(try Self.number(july, "declination") - Self.number(byYear, "declination")) <= 1e-6)

        let before = Date()
        let today = try Self.run(["--lat", "51.5", "--lon", "-0.1"])
        let after = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let candidates = [before, after].map { date -> Double in
            let year = calendar.component(.year, from: date)
            let day = calendar.ordinality(of: .day, in: .year, for: date)!
            let length = calendar.range(of: .day, in: .year, for: date)!.count
            return Double(year) + Double(day - 1) / Double(length)
        }
        let year = try Self.number(today, "year")
        #expect(candidates.contains { abs($0 - year) < 1e-6 }, "\(year) vs \(candidates)")
    }

    @Test("outside 2025 ... 2030 it answers, within_validity false; a blackout at the north magnetic pole")
    func validityAndZone() throws {
        let late = try Self.run(["--lat", "40", "--lon", "-105", "--year", "2031.2"])
        #expect(late["within_validity"] as? Bool == false)
        #expect(try Self.number(late, "declination").isFinite)
        let pole = try Self.run(["--lat", "85.5", "--lon", "136", "--date", "2026-01-01"])
        #expect(pole["zone"] as? String == "blackout")
        #expect(try Self.number(pole, "declination_uncertainty") > 10)
        let arctic = try Self.run(["--lat", "78", "--lon", "100", "--year", "2026"])
        #expect(arctic["zone"] as? String == "caution")
        let boulder = try Self.run(["--lat", "40", "--lon", "-105", "--height-m", "1655", "--year", "2026"])
        #expect(boulder["zone"] as? String == "normal")
        #expect(abs(try Self.number(boulder, "declination_uncertainty") - 0.369) < 0.01)
        #expect(boulder["grid_variation"] == nil)
    }

    @Test(
        "bad input: one line on stderr naming the option, exit 2",
        arguments: [
            (["--lat", "91", "--lon", "0"], "--lat 91: must be a latitude from -90 to 90"),
            (["--lat", "-90.5", "--lon", "0"], "--lat -90.5: must be a latitude from -90 to 90"),
            (["--lat", "abc", "--lon", "0"], "--lat abc: not a number"),
            (["--lat", "nan", "--lon", "0"], "--lat nan: not a number"),
            (["--lat", "1", "--lon", "400"], "--lon 400: must be a longitude from -360 to 360"),
            (["--lon", "0"], "--lat is required"),
            (["--lat", "0"], "--lon is required"),
            (
                ["--lat", "1", "--lon", "2", "--date", "2026-02-30"],
                "--date 2026-02-30: not a date; expected YYYY-MM-DD"
            ),
            (["--lat", "1", "--lon", "2", "--date", "2026-3-1"], "--date 2026-3-1: not a date; expected YYYY-MM-DD"),
            (
                ["--lat", "1", "--lon", "2", "--date", "0900-01-01"],
                "--date 0900-01-01: must be a date from 1025 to 3025"
            ),
            (
                ["--lat", "1", "--lon", "2", "--date", "2026-01-01", "--year", "2026"],
                "--date and --year are exclusive"
            ),
            (["--lat", "1", "--lon", "2", "--year", "1e9"], "--year 1e9: must be a decimal year from 1025 to 3025"),
            (["--lat", "1", "--lon", "2", "--year", "soon"], "--year soon: not a number"),
            (["--lat", "1", "--lon", "2", "--height-m", "-2000000"], "--height-m -2000000: must be a height"),
            (["--lat", "1", "--lon", "2", "--height-m", "1km"], "--height-m 1km: not a number"),
        ]
    )
    func badInput(arguments: [String], message: String) throws {
        let result = try WaymarkBinary.run(["geo", "declination"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("waymark geo declination: \(message)") == true, "stderr: \(result.stderr)")
    }

    @Test("geo --help lists declination; its help names every option")
    func help() throws {
        let group = try WaymarkBinary.run(["geo", "--help"])
        #expect(group.status == 0)
        #expect(group.stdout.contains("declination"))
        let help = try WaymarkBinary.run(["geo", "declination", "--help"])
        #expect(help.status == 0)
        for option in ["--lat", "--lon", "--height-m", "--date", "--year"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
    }
}
