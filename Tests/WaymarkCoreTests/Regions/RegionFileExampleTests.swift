import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite("config/regions.geojson, the documented example")
struct RegionFileExampleTests {
    static let path = Fixtures.packageRoot.appendingPathComponent("config/regions.geojson")

    static func ring(_ corners: [(Double, Double)]) -> [Coordinate] {
        (corners + [corners[0]]).map { Coordinate(latitude: $0.1, longitude: $0.0) }
    }

    @Test("the example parses without a problem into its circle, polygon with a hole, MultiPolygon and beacon region")
    func example() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.path))
        let file = RegionFile(parsing: bytes, fileName: "regions.geojson")
        let regions = try file.checkedRegions()
        #expect(
            regions == [
                Region(
                    id: "depot",
                    name: "Depot Regensburg",
                    shape: .circle(center: Coordinate(latitude: 49.0117, longitude: 12.0997), radius: 150)
                ),
                Region(
                    id: "yard-east",
                    name: "East yard",
                    notifyOnEntry: true,
                    notifyOnExit: false,
                    shape: .polygons([
                        [
                            Self.ring([(12.130, 49.020), (12.140, 49.020), (12.140, 49.026), (12.130, 49.026)]),
                            Self.ring([(12.134, 49.022), (12.134, 49.024), (12.136, 49.024), (12.136, 49.022)]),
                        ]
                    ])
                ),
                Region(
                    id: "loading-bays",
                    name: "Loading bays A and B",
                    notifyOnEntry: false,
                    notifyOnExit: true,
                    shape: .polygons([
                        [Self.ring([(12.080, 49.000), (12.083, 49.000), (12.083, 49.002), (12.080, 49.002)])],
                        [Self.ring([(12.090, 49.004), (12.092, 49.004), (12.092, 49.006), (12.090, 49.006)])],
                    ])
                ),
            ]
        )
        #expect(
            file.beaconRegions == [
                BeaconRegion(
                    id: "trailer-7",
                    name: "Trailer 7",
                    constraint: BeaconConstraint(uuid: try #require(BeaconUUID(Self.uuid)), major: 1, minor: 7),
                    ranging: true
                )
            ]
        )
        #expect(try file.checkedEntries().map(\.id) == ["depot", "yard-east", "loading-bays", "trailer-7"])
        #expect(file.features.map(\.vertexCount) == [0, 8, 8, 0])
        #expect(file.features.map(\.position.line) == [13, 23, 40, 57])
    }

    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test("rewriting the example keeps its regions, the beacon region too")
    func rewrite() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.path))
        let entries = try RegionFile(parsing: bytes, fileName: "regions.geojson").checkedEntries()
        #expect(entries.count == 4)
        let rewritten = RegionFile(parsing: RegionFile.encode(entries: entries), fileName: "regions.geojson")
        #expect(try rewritten.checkedEntries() == entries)
    }
}
