import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite("RegionFile.encode: regions back to a region file")
struct RegionFileEncodingTests {
    static func parse(_ bytes: [UInt8]) -> RegionFile { RegionFile(parsing: bytes, fileName: "regions.geojson") }

    static func ring(_ corners: [(Double, Double)]) -> [Coordinate] {
        (corners + [corners[0]]).map { Coordinate(latitude: $0.1, longitude: $0.0) }
    }

    @Test("one feature per line, keys in a fixed order, numbers in their shortest exact form")
    func layout() {
        let regions = [
            Region(
                id: "depot",
                name: "Depot \"Nord\"\n",
                shape: .circle(center: Coordinate(latitude: 49.0117, longitude: 12.0997), radius: 150)
            ),
            Region(
                id: "yard",
                notifyOnExit: false,
                shape: .polygons([[Self.ring([(0, 0), (4, 0), (4, 4)]), Self.ring([(1, 1), (1, 2), (2, 1)])]])
            ),
            Region(
                id: "bays",
                notifyOnEntry: false,
                shape: .polygons([
                    [Self.ring([(0.1, -0.0), (1e-7, 0), (1, 1)])],
                    [Self.ring([(-179.5, 89.25), (180, 89), (179, 88)])],
                ])
            ),
        ]
        let expected = """
            {
              "type": "FeatureCollection",
              "features": [
                {"type": "Feature", "properties": {"id": "depot", "name": "Depot \\"Nord\\"\\n", \
            "notify_on_entry": true, "notify_on_exit": true, "radius": 150}, \
            "geometry": {"type": "Point", "coordinates": [12.0997, 49.0117]}},
                {"type": "Feature", "properties": {"id": "yard", "notify_on_entry": true, "notify_on_exit": false}, \
            "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 0]], [[1, 1], [1, 2], [2, 1], \
            [1, 1]]]}},
                {"type": "Feature", "properties": {"id": "bays", "notify_on_entry": false, "notify_on_exit": true}, \
            "geometry": {"type": "MultiPolygon", "coordinates": [[[[0.1, -0], [1e-07, 0], [1, 1], [0.1, -0]]], \
            [[[-179.5, 89.25], [180, 89], [179, 88], [-179.5, 89.25]]]]}}
              ]
            }

            """
        #expect(String(decoding: RegionFile.encode(regions), as: UTF8.self) == expected)
    }

    @Test("no regions: an empty FeatureCollection")
    func empty() throws {
        let text = RegionFile.encode([])
        #expect(
            String(decoding: text, as: UTF8.self) == "{\n  \"type\": \"FeatureCollection\",\n  \"features\": []\n}\n"
        )
        #expect(try Self.parse(text).checkedRegions() == [])
    }

    @Test("parsing what was encoded gives the regions back, every coordinate to the last bit")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0x6E0_1503)
        let regions = (0..<400).map { Self.randomRegion(number: $0, using: &random) }
        let file = Self.parse(RegionFile.encode(regions))
        let parsed = try file.checkedRegions()
        #expect(parsed == regions)
        for (read, written) in zip(parsed, regions) {
            #expect(Self.bits(of: read.shape) == Self.bits(of: written.shape), "\(written.id)")
        }
        let vertexCounts = regions.map { region in
            guard case .polygons(let polygons) = region.shape else { return 0 }
            return polygons.joined().reduce(0) { $0 + $1.count - 1 }
        }
        #expect(file.features.map(\.vertexCount) == vertexCounts)
    }

    @Test("a region the format cannot hold is written as given, and parsing reports it")
    func invalidRegions() throws {
        let regions = [
            Region(id: "a", shape: .circle(center: Coordinate(latitude: .nan, longitude: 0), radius: 10)),
            Region(id: "b", shape: .circle(center: Coordinate(latitude: 0, longitude: 0), radius: .infinity)),
            Region(id: "a", shape: .circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1)),
        ]
        let error = try #require(throws: RegionFileError.self) {
            try Self.parse(RegionFile.encode(regions)).checkedRegions()
        }
        #expect(
            error.problems.map { "\($0.featureIndex ?? -1) \($0.member ?? "") \($0.value ?? "") \($0.code)" } == [
                "0 geometry.coordinates[1] null invalid coordinates",
                "1 properties.radius  invalid radius",
                "2 properties.id \"a\" duplicate id",
            ]
        )
    }

    /// Every `Double` of a shape, as bits: `==` would take -0 for 0.
    static func bits(of shape: RegionShape) -> [UInt64] {
        switch shape {
        case .circle(let center, let radius):
            [center.longitude.bitPattern, center.latitude.bitPattern, radius.bitPattern]
        case .polygons(let polygons):
            polygons.flatMap { $0.flatMap { $0.flatMap { [$0.longitude.bitPattern, $0.latitude.bitPattern] } } }
        }
    }

    static let awkwardStrings = [
        "", "\"", "\\", "\u{0}\u{1F}\t\r\n", "\u{E9}", "\u{1F69A} Lkw", "\u{65E5}\u{672C}", "a/b", "\u{7F}\u{2028}",
    ]
    static let awkwardNumbers: [Double] = [
        0, -0.0, 1e-7, Double.leastNonzeroMagnitude, 2.2250738585072014e-308, 0.1, 0.30000000000000004,
        89.99999999999999, -179.99999999999997, 180, -90, 1.5e-300,
    ]

    static func randomRegion(number: Int, using random: inout SplitMix64) -> Region {
        func coordinate() -> Coordinate {
            if Int.random(in: 0..<8, using: &random) == 0 {
                return Coordinate(
                    latitude: awkwardNumbers.filter { abs($0) <= 90 }.randomElement(using: &random)!,
                    longitude: awkwardNumbers.randomElement(using: &random)!
                )
            }
            return Coordinate(
                latitude: Double.random(in: -90...90, using: &random),
                longitude: Double.random(in: -180...180, using: &random)
            )
        }
        let shape: RegionShape
        if Bool.random(using: &random) {
            let radius = [Double.random(in: 1...50_000, using: &random), 1e-300, 0.1, 6_371_000.5]
                .randomElement(using: &random)!
            shape = .circle(center: coordinate(), radius: radius)
        } else {
            shape = .polygons(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        let corners = (0..<Int.random(in: 3...20, using: &random)).map { _ in coordinate() }
                        return corners + [corners[0]]
                    }
                }
            )
        }
        let suffix = awkwardStrings.randomElement(using: &random)!
        return Region(
            id: "r\(number)\(suffix)",
            name: Bool.random(using: &random) ? nil : "name \(suffix)",
            notifyOnEntry: Bool.random(using: &random),
            notifyOnExit: Bool.random(using: &random),
            shape: shape
        )
    }
}
