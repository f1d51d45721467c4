import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite struct RegionIndexUpdateTests {
    static func circle(_ id: String, _ latitude: Double, _ longitude: Double, radius: Double) throws -> PreparedRegion {
        try PreparedRegion(
            Region(id: id, shape: .circle(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius))
        )
    }

    static func candidates(_ index: RegionIndex, _ latitude: Double, _ longitude: Double, margin: Double = 0) -> [Int32]
    {
        var slots: [Int32] = []
        index.candidates(near: Coordinate(latitude: latitude, longitude: longitude), within: margin, into: &slots)
        return slots
    }

    @Test func aRegionReplacedByIDKeepsItsSlotAndMoves() throws {
        var index = RegionIndex()
        let slot = index.insert(try Self.circle("depot", 49.0, 12.1, radius: 500))
        #expect(Self.candidates(index, 49.0, 12.1) == [slot])
        #expect(index.slot(of: "depot") == slot)
        let point = Coordinate(latitude: 49.002, longitude: 12.1)
        #expect(index.signedDistance(ofRegionAt: slot, to: point) == index.region(at: slot)?.signedDistance(to: point))

        #expect(index.insert(try Self.circle("depot", 52.5, 13.4, radius: 500)) == slot)
        #expect(index.count == 1)
        #expect(Self.candidates(index, 49.0, 12.1).isEmpty)
        #expect(Self.candidates(index, 52.5, 13.4) == [slot])
        #expect(index.region(at: slot)?.center == Coordinate(latitude: 52.5, longitude: 13.4))

        #expect(index.remove(id: "depot")?.center == Coordinate(latitude: 52.5, longitude: 13.4))
        #expect(index.count == 0)
        #expect(index.region(at: slot) == nil)
        #expect(index.slot(of: "depot") == nil)
        #expect(Self.candidates(index, 52.5, 13.4).isEmpty)
        #expect(index.remove(id: "depot") == nil)

        // The free slot goes to the next region.
        #expect(index.insert(try Self.circle("yard", 48.1, 11.6, radius: 200)) == slot)
        #expect(index.slotCount == 1)
        #expect(index.region(at: 7) == nil)
    }

    @Test func aWideRegionReplacedByASmallOneLeavesThePole() throws {
        var index = RegionIndex([try Self.circle("cap", 90, 0, radius: 300_000)])
        let slot = try #require(index.slot(of: "cap"))
        #expect(Self.candidates(index, 89, 77) == [slot])
        index.insert(try Self.circle("cap", 10, 10, radius: 300))
        #expect(Self.candidates(index, 89, 77).isEmpty)
        #expect(Self.candidates(index, 10, 10) == [slot])
        index.insert(try Self.circle("cap", -90, 0, radius: 1_000))
        #expect(Self.candidates(index, 10, 10).isEmpty)
        #expect(Self.candidates(index, -89.995, 123) == [slot])
        index.remove(id: "cap")
        #expect(Self.candidates(index, -90, 0).isEmpty)
    }

    @Test("a region listed in the four cells a query spans is returned once")
    func onceAcrossCells() throws {
        // 52.05° N 10.05° E is the corner of four cells of 0.05°.
        let index = RegionIndex([try Self.circle("corner", 52.05, 10.05, radius: 2_000)])
        #expect(Self.candidates(index, 52.05, 10.05, margin: 100).count == 1)
        #expect(Self.candidates(index, 52.0501, 10.0499, margin: 1_000).count == 1)
        #expect(Self.candidates(index, 52.0499, 10.0501, margin: 20).count == 1)
    }

    @Test func candidatesAreAppended() throws {
        let index = RegionIndex([try Self.circle("a", 49.0, 12.1, radius: 500)])
        var slots: [Int32] = [99]
        index.candidates(near: Coordinate(latitude: 49.0, longitude: 12.1), within: 0, into: &slots)
        #expect(slots == [99, 0])
        index.candidates(near: Coordinate(latitude: .nan, longitude: 12.1), within: 0, into: &slots)
        index.candidates(near: Coordinate(latitude: 91, longitude: 12.1), within: 0, into: &slots)
        #expect(slots == [99, 0])
        // Longitudes beyond ±180° are the same places.
        index.candidates(near: Coordinate(latitude: 49.0, longitude: 372.1), within: 0, into: &slots)
        #expect(slots == [99, 0, 0])
    }

    @Test("inserts, replacements and removals leave the index a fresh build of the same regions would be")
    func updatesMatchAFreshBuild() throws {
        var random = SplitMix64(seed: 11)
        let pool = try RegionIndexTests.randomRegions(
            circles: 900,
            polygons: 100,
            latitudes: 50.0...50.5,
            longitudes: 8.0...8.6,
            using: &random
        )
        var index = RegionIndex(pool.prefix(500))
        var current = Dictionary(uniqueKeysWithValues: pool.prefix(500).map { ($0.id, $0) })
        for _ in 0..<2_000 {
            let region = pool[Int.random(in: 0..<pool.count, using: &random)]
            if Bool.random(using: &random) {
                // Insert, or replace by id with another region's shape.
                let other = pool[Int.random(in: 0..<pool.count, using: &random)]
                let replacement = try PreparedRegion(
                    Region(
                        id: region.id,
                        shape: other.isCircle
                            ? .circle(center: other.center, radius: other.size)
                            : .circle(center: other.center, radius: other.size / 2)
                    )
                )
                index.insert(replacement)
                current[region.id] = replacement
            } else {
                #expect((index.remove(id: region.id) != nil) == (current.removeValue(forKey: region.id) != nil))
            }
        }
        let fresh = RegionIndex(Array(current.values))
        #expect(index.count == current.count)
        for _ in 0..<500 {
            let point = Coordinate(
                latitude: Double.random(in: 50.0...50.5, using: &random),
                longitude: Double.random(in: 8.0...8.6, using: &random)
            )
            var updated: [Int32] = []
            var built: [Int32] = []
            index.candidates(near: point, within: 20, into: &updated)
            fresh.candidates(near: point, within: 20, into: &built)
            let updatedIDs = updated.compactMap { index.region(at: $0)?.id }
            #expect(updatedIDs.count == updated.count)
            #expect(Set(updatedIDs) == Set(built.compactMap { fresh.region(at: $0)?.id }), "\(point)")
        }
    }

    @Test("every cell size gives a superset", arguments: [1, 7, 20, 100])
    func cellSizes(cellsPerDegree: Int) throws {
        var random = SplitMix64(seed: UInt64(cellsPerDegree))
        let regions = try RegionIndexTests.randomRegions(
            circles: 400,
            polygons: 40,
            latitudes: 47.0...47.4,
            longitudes: 179.7...180.3,
            using: &random
        )
        let index = RegionIndex(regions, cellsPerDegree: cellsPerDegree)
        var candidates: [Int32] = []
        for _ in 0..<300 {
            let point = Coordinate(
                latitude: Double.random(in: 47.0...47.4, using: &random),
                longitude: Double.random(in: 179.7...180.3, using: &random).remainder(dividingBy: 360)
            )
            let within = RegionIndexTests.bruteForce(index, regions, near: point, within: 200)
            _ = RegionIndexTests.check(
                index,
                at: point,
                margins: [0, 20, 200],
                within: within,
                candidates: &candidates
            )
        }
    }
}

@Suite struct RegionIndexLayoutTests {
    /// What the index holds per region beyond a polygon's vertices (16 bytes each): the prepared region
    /// (72 bytes), its cap (32) and its cells (16), by slot; its id in a dictionary; its slot in each cell.
    @Test func perRegionBookkeeping() {
        #expect(MemoryLayout<PreparedRegion?>.stride == 72)
        #expect(MemoryLayout<RegionCap>.stride == 32)
        #expect(MemoryLayout<RegionGrid.Extent>.stride == 16)
        print(
            "regions: strides PreparedRegion? \(MemoryLayout<PreparedRegion?>.stride) B, "
                + "RegionCap \(MemoryLayout<RegionCap>.stride) B, extent \(MemoryLayout<RegionGrid.Extent>.stride) B"
        )
    }
}
