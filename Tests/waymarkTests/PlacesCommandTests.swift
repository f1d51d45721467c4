import Foundation
import PlacesOracle
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Issue 20's acceptance through the binary: the drive's trips and pauses name their places as the brute force
/// does, a site around the start wins, a damaged gazetteer leaves the agent running without places, and
/// `waymark geo place` answers or refuses bad coordinates with exit 2.
@Suite struct PlacesCommandTests {
    static let drive = "20100411_Geko_Regensburg.log.chk"
    static let oracle = Result { PlacesOracle(tsv: try PlacesFixture.citiesText()) }

    /// `waymark replay --print` of the drive with `pause_after = "30s"` and `settings`; the `pause` and `trip`
    /// events, and stderr.
    static func replay(_ settings: String, in directory: URL) throws -> (events: [[String: Any]], stderr: String) {
        let path = directory.appendingPathComponent("waymark.toml").path
        try "[activity]\npause_after = \"30s\"\n\(settings)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WaymarkBinary.run(["replay", Fixtures.gpsdLog(drive), "--print", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try WaymarkBinary.events(result).filter { ["pause", "trip"].contains($0["type"] as? String) }
        return (events, result.stderr)
    }

    /// Every place of the events, with the position it names.
    static func places(_ events: [[String: Any]]) -> [(place: [String: Any]?, at: Coordinate)] {
        events.flatMap { event -> [([String: Any]?, Coordinate)] in
            func at(_ lat: String, _ lon: String) -> Coordinate {
                Coordinate(latitude: event[lat] as? Double ?? .nan, longitude: event[lon] as? Double ?? .nan)
            }
            if event["type"] as? String == "pause" { return [(event["place"] as? [String: Any], at("lat", "lon"))] }
            return [
                (event["start_place"] as? [String: Any], at("start_lat", "start_lon")),
                (event["end_place"] as? [String: Any], at("lat", "lon")),
            ]
        }
    }

    @Test("the drive's trips and pauses name the places the brute force finds")
    func driveNamesItsPlaces() throws {
        let file = try PlacesFixture.file.get()
        let oracle = try Self.oracle.get()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (events, _) = try Self.replay("[places]\nfile = \"\(file)\"", in: directory)
        #expect(events.filter { $0["type"] as? String == "trip" }.count == 3)
        #expect(events.filter { $0["type"] as? String == "pause" }.count == 2)
        for (place, position) in Self.places(events) {
            let expected = oracle.nearest(to: position)
            #expect(place?["geonameid"] as? Int == Int(expected.entry.geonameID), "\(position)")
            #expect(place?["name"] as? String == expected.entry.name)
            let distance = try #require(place?["distance"] as? Double)
            #expect(abs(distance - expected.distance) <= 0.001)
        }
    }

    @Test("with a site around the start, the first trip starts at the site")
    func siteAroundTheStart() throws {
        let file = try PlacesFixture.file.get()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let regions = directory.appendingPathComponent("regions.geojson").path
        try #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point",
        "coordinates":[12.065271667,49.026566667]},"properties":{"id":"depot","name":"Depot North","radius":150}}]}
        """#.write(toFile: regions, atomically: true, encoding: .utf8)
        let (events, _) = try Self.replay(
            "[places]\nfile = \"\(file)\"\n[regions]\nfile = \"\(regions)\"",
            in: directory
        )
        let first = try #require(events.first { $0["type"] as? String == "trip" })
        let start = first["start_place"] as? [String: Any]
        #expect(start?["name"] as? String == "Depot North" && start?["site"] as? String == "depot")
        #expect(start?["distance"] as? Double == 0)
        // The drive ends back near the start: the last trip ends within the site radius or in it.
        let last = try #require(events.last { $0["type"] as? String == "trip" })
        #expect((last["end_place"] as? [String: Any])?["site"] as? String == "depot")
    }

    @Test("a damaged or missing gazetteer: one warning, no places, the rest works")
    func damagedGazetteer() throws {
        let file = try PlacesFixture.file.get()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let truncated = directory.appendingPathComponent("truncated.bin").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let random = directory.appendingPathComponent("random.bin").path
        var generator = SplitMix64(seed: 20)
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
            .write(to: URL(fileURLWithPath: random))
        var wrongVersion = bytes
        wrongVersion[8] = 9
        let versioned = directory.appendingPathComponent("version.bin").path
        try wrongVersion.write(to: URL(fileURLWithPath: versioned))
        let missing = directory.appendingPathComponent("missing.bin").path
        for (path, reason) in [
            (truncated, "truncated"), (random, "not a Waymark gazetteer"), (versioned, "format version 9"),
            (missing, "No such file or directory"),
        ] {
            let (events, stderr) = try Self.replay("[places]\nfile = \"\(path)\"", in: directory)
            #expect(events.filter { $0["type"] as? String == "trip" }.count == 3, "\(path)")
            #expect(Self.places(events).allSatisfy { $0.place == nil })
            let warnings = stderr.split(separator: "\n").filter { $0.contains(path) }
            #expect(warnings.count == 1 && warnings.first?.contains(reason) == true, "\(stderr)")
        }
    }

    @Test(
        "geo place refuses a bad coordinate in one line, exit 2",
        arguments: [["91", "0"], ["0", "361"], ["x", "0"], ["0"], ["--", "-90.5", "0"]]
    )
    func badCoordinates(arguments: [String]) throws {
        let file = try PlacesFixture.file.get()
        let result = try WaymarkBinary.run(["geo", "place", "--file", file] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasPrefix("waymark geo place: "))
        #expect(result.stdout.isEmpty)
    }

    @Test("geo place answers as the brute force; far away, it says so")
    func geoPlace() throws {
        let file = try PlacesFixture.file.get()
        let kelheim = try WaymarkBinary.run(["geo", "place", "--json", "--file", file, "48.93", "11.9"])
        #expect(kelheim.status == 0, "\(kelheim.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(kelheim.stdout.utf8)) as? [String: Any]
        )
        #expect(object["name"] as? String == "Kelheim" && object["country"] as? String == "DE")
        #expect(object["timezone"] as? String == "Europe/Berlin" && object["admin1"] as? String == "02")
        #expect((object["description"] as? String)?.hasSuffix("of Kelheim, DE") == true)
        let sea = try WaymarkBinary.run(["geo", "place", "--json", "--file", file, "--", "-30", "-20"])
        #expect(sea.stdout.hasPrefix(#"{"place":null,"reason":"no populated place within 50 km"#))
        let damaged = try WaymarkBinary.run(["geo", "place", "--file", "/nonexistent/places.bin", "0", "0"])
        #expect(damaged.status == 1 && damaged.stderr.contains("/nonexistent/places.bin: cannot open it"))
        let about = try WaymarkBinary.run(["geo", "place", "--about"])
        #expect(about.stdout.contains("Contains data from GeoNames, geonames.org, CC BY 4.0"))
    }
}
