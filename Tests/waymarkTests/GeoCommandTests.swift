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
