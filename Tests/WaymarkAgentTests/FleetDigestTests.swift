import Testing
import WaymarkCore
import WaymarkFormats

@testable import WaymarkAgent

/// The digests a board publishes: of its configuration in effect, in a canonical form, and of its regions.
@Suite struct FleetDigestTests {
    static func digest(_ text: String) throws -> String {
        FleetDigests.configuration(try Configuration.parse(text, fileName: "waymark.toml"))
    }

    /// Pairs of files that are one configuration in effect, and pairs that are not.
    static let same: [(String, String, String)] = [
        ("an empty file and the defaults written out", "", "[gpsd]\nport = 2947\n[fleet]\nenabled = false\n"),
        (
            "comments, blank lines and key order", "[gpsd]\nport = 2948\nhost = \"a\"\n",
            "# x\n[gpsd]\nhost = \"a\" # y\n\nport = 2948\n"
        ),
        ("a duration's spelling", "[fleet]\nstatus_interval = \"60s\"\n", "[fleet]\nstatus_interval = \"1m\"\n"),
        (
            "the device id, which names the board", "[agent]\ndevice_id = \"bus-1\"\n",
            "[agent]\ndevice_id = \"bus-2\"\n"
        ),
        ("a literal string and a basic one", "[gpsd]\nhost = 'gps.local'\n", "[gpsd]\nhost = \"gps.local\"\n"),
    ]

    static let different: [(String, String, String)] = [
        ("a port", "[gpsd]\nport = 2947\n", "[gpsd]\nport = 2948\n"),
        ("a duration", "[fleet]\nstatus_interval = \"60s\"\n", "[fleet]\nstatus_interval = \"61s\"\n"),
        ("a boolean", "", "[sinks.owntracks]\nretain = false\n"),
        ("an optional setting set", "", "[metrics]\ntextfile = \"/run/w.prom\"\n"),
    ]

    @Test(arguments: same.indices)
    func oneConfigurationInEffectIsOneDigest(_ index: Int) throws {
        let (name, first, second) = Self.same[index]
        #expect(try Self.digest(first) == Self.digest(second), "\(name)")
    }

    @Test(arguments: different.indices)
    func anotherConfigurationIsAnotherDigest(_ index: Int) throws {
        let (name, first, second) = Self.different[index]
        #expect(try Self.digest(first) != Self.digest(second), "\(name)")
    }

    @Test func theCanonicalTextIsSortedLinesOfEveryKeyInEffect() throws {
        let text = FleetDigests.canonicalText(of: try Configuration.parse("[gpsd]\nport = 2948\n", fileName: "w"))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == lines.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(lines.contains("gpsd.port=2948"))
        #expect(lines.contains("fleet.status_interval=\"1m\""))
        #expect(lines.contains("fleet.enabled=false"))
        #expect(!lines.contains { $0.hasPrefix("agent.device_id=") })
        #expect(text.hasSuffix("\n"))
        #expect(
            FleetDigests.configuration(try Configuration.parse("[gpsd]\nport = 2948\n", fileName: "w"))
                == SHA256.hexDigest(Array(text.utf8))
        )
    }

    @Test func theRegionsDigestIsOfTheSetNotItsOrder() {
        let a = Region(id: "a", shape: .circle(center: Coordinate(latitude: 48.5, longitude: 11.25), radius: 50))
        let b = Region(
            id: "b",
            name: "Depot",
            shape: .polygons([
                [
                    [
                        Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                        Coordinate(latitude: 1, longitude: 0), Coordinate(latitude: 0, longitude: 0),
                    ]
                ]
            ])
        )
        #expect(FleetDigests.regions([a, b], beacons: []) == FleetDigests.regions([b, a], beacons: []))
        #expect(FleetDigests.regions([a], beacons: []) != FleetDigests.regions([a, b], beacons: []))
        var moved = a
        moved.shape = .circle(center: Coordinate(latitude: 48.5, longitude: 11.25), radius: 51)
        #expect(FleetDigests.regions([a], beacons: []) != FleetDigests.regions([moved], beacons: []))
        var limited = a
        limited.speedLimitKmh = 30
        #expect(FleetDigests.regions([a], beacons: []) != FleetDigests.regions([limited], beacons: []))
        #expect(
            FleetDigests.canonicalText(regions: [b, limited], beacons: [])
                == "a|-|true|true|circle|48.5,11.25|50.0|30.0\nb|Depot|true|true|polygons|0.0,0.0;0.0,1.0;1.0,0.0;0.0,0.0|-\n"
        )
        // No region: SHA-256 of nothing.
        #expect(
            FleetDigests.regions([], beacons: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
    }
}
