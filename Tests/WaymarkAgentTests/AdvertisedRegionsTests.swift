import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkAgent

/// Review of issue 41, finding 13: `[beacons.advertise] regions` that can never be entered are said when the region
/// file is loaded: an id it lacks, a beacon region while nothing scans.
@Suite struct AdvertisedRegionsTests {
    static func loaded() throws -> RegionSource.Loaded {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("regions.geojson").path
        try """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.07, 49.02]}, "properties": {"id": "yard", "radius": 100}},
        {"type": "Feature", "geometry": null,
         "properties": {"id": "gate", "beacon": {"uuid": "B9407F30-F5F8-466E-AFF9-25556B57FE6D", "major": 1}}}
        ]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return try RegionSource(path: path, settings: RegionsSettings()).load().get()
    }

    @Test(arguments: [
        (["yard", "gate"], true, [String]()),
        (["yard", "gate", "depot"], true, [#"the region file has no region "depot": it never starts advertising"#]),
        (["yard", "gate"], false, [#""gate" is a beacon region and [beacons] enabled = false"#]),
    ])
    func unreachable(_ ids: [String], _ scanning: Bool, _ expected: [String]) throws {
        let problems = AdvertisingPolicy.Rule.insideRegions(Set(ids)).unreachableRegions(
            in: try Self.loaded(),
            scanning: scanning
        )
        #expect(problems.count == expected.count, "\(problems)")
        for (problem, part) in zip(problems, expected) {
            #expect(problem.hasPrefix("[beacons.advertise] regions: ") && problem.contains(part), "\(problem)")
        }
    }

    @Test func otherRulesReadNoRegions() throws {
        #expect(AdvertisingPolicy.Rule.whileMoving.unreachableRegions(in: try Self.loaded(), scanning: false).isEmpty)
    }
}
