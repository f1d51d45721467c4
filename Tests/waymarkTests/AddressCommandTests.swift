import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Street addresses through the binary: `waymark places build-addresses` of an extract that osmium-tool writes,
/// the drive's pauses and trips named by the nearest address, `geo place --json`'s `address` object, and a
/// damaged address file refused with a warning while the agent goes on with the populated places.
@Suite struct AddressCommandTests {
    /// Builds an address file from OPL text (osmium-tool makes the PBF, as an extract comes).
    static func addressFile(opl: String, in directory: URL) throws -> String {
        let text = directory.appendingPathComponent("extract.opl").path
        let extract = directory.appendingPathComponent("extract.osm.pbf").path
        let output = directory.appendingPathComponent("addresses.bin").path
        try opl.write(toFile: text, atomically: true, encoding: .utf8)
        let converted = try WaymarkBinary.run(["cat", text, "-o", extract], executable: "/usr/bin/osmium")
        #expect(converted.status == 0, "osmium-tool (scripts/install-deps.sh --tests): \(converted.stderr)")
        let built = try WaymarkBinary.run(["places", "build-addresses", extract, output])
        #expect(built.status == 0, "\(built.stderr)")
        return output
    }

    @Test("the drive's pauses and trips are named by the nearest address")
    func driveNamesAddresses() throws {
        let places = try PlacesFixture.file.get()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (before, _) = try PlacesCommandTests.replay("[places]\nfile = \"\(places)\"", in: directory)
        let positions = PlacesCommandTests.places(before).map(\.at)
        try #require(positions.count == 8)
        // One address 12 m north of each place, numbered in order, at 1e-7° as OSM stores it; osmium wants the
        // nodes sorted by id.
        let text = positions.map {
            (String(format: "%.7f", $0.latitude + 12 / 111_200), String(format: "%.7f", $0.longitude))
        }
        let addresses = text.map { Coordinate(latitude: Double($0.0)!, longitude: Double($0.1)!) }
        let opl = text.enumerated().map { index, point in
            "n\(index + 1) v1 dV c1 t2026-01-01T00:00:00Z i1 u Taddr:housenumber=\(index + 1),"
                + "addr:street=Teststra%df%e,addr:postcode=93047,addr:city=Regensburg x\(point.1) y\(point.0)"
        }.joined(separator: "\n")
        let file = try Self.addressFile(opl: opl + "\n", in: directory)
        let (after, stderr) = try PlacesCommandTests.replay(
            "[places]\nfile = \"\(places)\"\naddresses = \"\(file)\"",
            in: directory
        )
        #expect(!stderr.contains("warning"), "\(stderr)")
        let named = PlacesCommandTests.places(after)
        #expect(named.map(\.at) == positions)
        for (place, position) in named {
            let distances = addresses.map { Geodesic.distance(from: $0, to: position) }
            let address = try #require(place?["address"] as? [String: Any], "\(position)")
            // The nearest address (the trips' ends and the pauses share positions: any of those at the same
            // distance).
            let number = try #require(Int(address["house_number"] as? String ?? ""))
            #expect(abs(distances[number - 1] - distances.min()!) <= 0.001, "\(position): \(number)")
            #expect(address["street"] as? String == "Teststraße" && address["city"] as? String == "Regensburg")
            #expect(abs((address["distance"] as? Double ?? -1) - distances[number - 1]) <= 0.001)
            #expect(place?["name"] as? String == "Teststraße \(number), 93047 Regensburg")
            // The populated place still gives the time zone.
            #expect(place?["timezone"] as? String == "Europe/Berlin")
        }
    }

    @Test("geo place answers by address without a gazetteer, and --about with a bad configuration")
    func withoutGazetteerOrConfiguration() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opl = "n1 v1 dV c1 t2026-01-01T00:00:00Z i1 u Taddr:housenumber=1,addr:street=Kaivokatu x24.94 y60.17\n"
        let file = try Self.addressFile(opl: opl, in: directory)
        let missing = directory.appendingPathComponent("no-places.bin").path
        let answered = try WaymarkBinary.run([
            "geo", "place", "60.17", "24.9401", "--file", missing, "--addresses", file,
        ])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.hasPrefix("Kaivokatu 1"), "\(answered.stdout)")
        #expect(answered.stderr.contains("\(missing): ") && answered.stderr.contains("street addresses and sites only"))
        // Neither file: exit 1 as before.
        let neither = try WaymarkBinary.run(["geo", "place", "60.17", "24.9401", "--file", missing])
        #expect(neither.status == 1)

        let config = directory.appendingPathComponent("bad.toml").path
        try "[places\n".write(toFile: config, atomically: true, encoding: .utf8)
        let about = try WaymarkBinary.run(["geo", "place", "--about", "--config", config, "--addresses", file])
        #expect(about.status == 0, "\(about.stderr)")
        #expect(about.stdout.contains("GeoNames") && about.stdout.contains("© OpenStreetMap contributors, ODbL"))
        // Without --about, the bad configuration is still an error.
        let placed = try WaymarkBinary.run(["geo", "place", "60.17", "24.9401", "--config", config])
        #expect(placed.status != 0)
    }

    @Test("a damaged address file: a warning naming it, and the populated place")
    func damagedFile() throws {
        let places = try PlacesFixture.file.get()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opl = "n1 v1 dV c1 t2026-01-01T00:00:00Z i1 u Taddr:housenumber=1,addr:street=Kaivokatu x24.94 y60.17\n"
        let file = try Self.addressFile(opl: opl, in: directory)
        let good = try WaymarkBinary.run(
            ["geo", "place", "60.17", "24.9401", "--json", "--file", places, "--addresses", file]
        )
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        let address = try #require(answer["address"] as? [String: Any])
        #expect(address["house_number"] as? String == "1" && address["street"] as? String == "Kaivokatu")
        #expect(address["postcode"] == nil && address["city"] == nil)

        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes.removeLast(32)
        try bytes.write(to: URL(fileURLWithPath: file))
        let damaged = try WaymarkBinary.run(["geo", "place", "60.17", "24.9401", "--file", places, "--addresses", file])
        #expect(damaged.status == 0)
        #expect(damaged.stderr.contains("\(file): "), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("truncated") && damaged.stderr.contains("without street addresses"))
        #expect(damaged.stdout.contains("Helsinki, FI"))
        // The agent (a replay, as `run` opens its files) says so once and names the populated places.
        let (events, stderr) = try PlacesCommandTests.replay(
            "[places]\nfile = \"\(places)\"\naddresses = \"\(file)\"",
            in: directory
        )
        #expect(stderr.contains("\(file): ") && stderr.contains("running without street addresses"), "\(stderr)")
        let named = PlacesCommandTests.places(events)
        #expect(!named.isEmpty && named.allSatisfy { $0.place?["geonameid"] != nil && $0.place?["address"] == nil })
        let config = directory.appendingPathComponent("check.toml").path
        try "[places]\nfile = \"\(places)\"\naddresses = \"\(file)\"\n".write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        let check = try WaymarkBinary.run(["check-config", config])
        #expect(check.status != 0 && check.stderr.contains("addresses"), "\(check.stdout) \(check.stderr)")
    }
}
