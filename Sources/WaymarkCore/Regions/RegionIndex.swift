/// The monitored regions with a spatial index, so that the work per fix does not grow with the regions far
/// from the vehicle: ``candidates(near:within:into:)`` returns the few regions a fix may be in or near,
/// and ``signedDistance(ofRegionAt:to:)`` measures each.
///
/// Every region has a slot, an `Int32` that stays its own until it is removed (replacing a region by id
/// keeps the slot); a removed region's slot is given to a later one, so a caller that keeps state per slot
/// resets it when ``insert(_:)`` returns the slot. Slots are below ``slotCount``.
///
/// The index is a uniform grid of latitude and longitude between 85° S and 85° N, `1 / cellsPerDegree`
/// degrees square (0.05° by default: 5.6 km north-south, 3.5 km east-west at 51° N). A region is listed
/// in every cell that its bounding cap (its ``PreparedRegion/center`` and ``PreparedRegion/size``, with the
/// margin of ``RegionCap``) touches, the cells wrapping around the antimeridian; a region that reaches
/// beyond the band (around a pole) or would cover more than 1,024 cells (some 130 km across at 50° N) is
/// listed once among the wide regions, which every query checks. A query looks up the cell of the fix
/// (and its neighbours when the margin reaches them: 2 % of fixes with a margin of 20 m), tests the cap of
/// each region listed there (three products) and keeps those whose cap, widened by the margin, holds the
/// fix. At the default size a region 2 km across is listed in 1 to 4 cells, one 10 km across in 6 to 12.
///
/// Cell size: with issue 5's 110,000 regions over Germany (circles of 50 m to 5 km, polygons up to 20 km)
/// cells of 0.1°, 0.05° and 0.025° answer in the same time (3.8 µs per fix at the median, dominated by
/// the candidates' geodesic distances), and hold 20, 23 and 32 MB built in 60, 90 and 290 ms; 0.05° keeps
/// the lists short enough for denser sets (100,000 circles in one city: about 2,400 regions listed per
/// cell, 16 µs per fix; 0.02° cells make it 13 µs) at little cost in memory.
///
/// A value type: copies are independent (copy on write). Queries allocate nothing; they may run on
/// several threads at once on the same value.
public struct RegionIndex: Sendable {
    /// The default number of cells per degree of latitude and of longitude: 20, cells of 0.05°.
    public static let defaultCellsPerDegree = 20
    /// A region that would be listed in more cells is a wide region.
    static let maximumCellsPerRegion = 1_024
    /// A query whose margin reaches more cells scans every region's cap instead.
    static let maximumCellsPerQuery = 64

    let grid: RegionGrid
    /// By slot; nil for a free slot.
    private var regions: [PreparedRegion?] = []
    /// By slot: the bounding cap of each region (meaningless for a free slot).
    private var caps: [RegionCap] = []
    /// By slot: the cells the region is listed in, or ``RegionGrid/Extent/wide`` or ``RegionGrid/Extent/free``.
    private var extents: [RegionGrid.Extent] = []
    private var slotsByID: [String: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// The bucket of each non-empty cell, by ``RegionGrid/key(row:column:)``.
    private var cells: [Int32: Int32] = [:]
    /// The slots listed in each cell, by bucket; the lists are appended to in place (a dictionary's
    /// values would be reached through an accessor that allocates on every append).
    private var buckets: [[Int32]] = []
    /// Buckets of cells that became empty, for reuse.
    private var freeBuckets: [Int32] = []
    /// The slots of the wide regions.
    private var wide: [Int32] = []

    /// An empty index with cells of `1 / cellsPerDegree` degrees (1 ... 100).
    public init(cellsPerDegree: Int = defaultCellsPerDegree) {
        grid = RegionGrid(cellsPerDegree: Int32(cellsPerDegree))
    }

    /// An index of `regions`, inserted in order: a region whose id comes again replaces the earlier one.
    ///
    /// Builds the cells in two passes (count, then fill), so that each cell's list is allocated once.
    public init(_ regions: some Sequence<PreparedRegion>, cellsPerDegree: Int = defaultCellsPerDegree) {
        self.init(cellsPerDegree: cellsPerDegree)
        let expected = regions.underestimatedCount
        self.regions.reserveCapacity(expected)
        caps.reserveCapacity(expected)
        extents.reserveCapacity(expected)
        slotsByID.reserveCapacity(expected)
        for region in regions { place(region) }
        var counts: [Int32: Int32] = [:]
        for extent in extents where extent.rowCount > 0 {
            for key in grid.keys(of: extent) { counts[key, default: 0] += 1 }
        }
        cells.reserveCapacity(counts.count)
        buckets.reserveCapacity(counts.count)
        for (key, count) in counts {
            cells[key] = Int32(buckets.count)
            var listed: [Int32] = []
            listed.reserveCapacity(Int(count))
            buckets.append(listed)
        }
        for (slot, extent) in extents.enumerated() where extent.rowCount > 0 {
            for key in grid.keys(of: extent) {
                guard let bucket = cells[key] else { preconditionFailure("cell \(key) was not counted") }
                buckets[Int(bucket)].append(Int32(slot))
            }
        }
    }

    /// The number of regions.
    public var count: Int { slotsByID.count }

    /// Every slot in use is below this.
    public var slotCount: Int { regions.count }

    /// The slot of the region with `id`, if there is one.
    public func slot(of id: String) -> Int32? { slotsByID[id] }

    /// The region in `slot`; nil for a free slot or one out of range.
    public func region(at slot: Int32) -> PreparedRegion? {
        regions.indices.contains(Int(slot)) ? regions[Int(slot)] : nil
    }

    /// ``PreparedRegion/signedDistance(to:)`` of the region in `slot`, which must be in use (a slot that
    /// ``candidates(near:within:into:)`` returned since the last change).
    public func signedDistance(ofRegionAt slot: Int32, to coordinate: Coordinate) -> Double {
        guard let region = regions[Int(slot)] else { preconditionFailure("slot \(slot) holds no region") }
        return region.signedDistance(to: coordinate)
    }

    /// Adds `region`, or replaces the region with its id (which keeps its slot); returns its slot.
    @discardableResult
    public mutating func insert(_ region: PreparedRegion) -> Int32 {
        if let existing = slotsByID[region.id] { unlist(existing) }
        let slot = place(region)
        let extent = extents[Int(slot)]
        if extent.rowCount > 0 {
            for key in grid.keys(of: extent) { list(slot, inCell: key) }
        }
        return slot
    }

    /// Gives `region` a slot (its own if its id is there, which must not be listed in any cell), its cap
    /// and its extent, and lists it among the wide regions if it is one; the caller lists it in its cells.
    @discardableResult
    private mutating func place(_ region: PreparedRegion) -> Int32 {
        let slot: Int32
        if let existing = slotsByID[region.id] {
            slot = existing
            if extents[Int(slot)] == .wide { unlist(slot) }
        } else if let free = freeSlots.popLast() {
            slot = free
        } else {
            precondition(regions.count < Int(Int32.max), "a region index holds at most \(Int32.max) regions")
            slot = Int32(regions.count)
            regions.append(nil)
            caps.append(RegionCap(x: 0, y: 0, z: 0, angle: 0))
            extents.append(.free)
        }
        slotsByID[region.id] = slot
        regions[Int(slot)] = region
        // A polygon's plane errs by parts in 10⁵ at most: 10⁻⁴ of its size and a metre make up for it.
        let cap = RegionCap(around: region.center, distance: region.size * (1 + 1e-4) + 1)
        caps[Int(slot)] = cap
        if let extent = grid.extent(around: region.center, radians: cap.angle, maximumCells: Self.maximumCellsPerRegion)
        {
            extents[Int(slot)] = extent
        } else {
            extents[Int(slot)] = .wide
            wide.append(slot)
        }
        return slot
    }

    /// Removes the region with `id`; returns it, or nil if there was none. Its slot becomes free.
    @discardableResult
    public mutating func remove(id: String) -> PreparedRegion? {
        guard let slot = slotsByID.removeValue(forKey: id) else { return nil }
        unlist(slot)
        let region = regions[Int(slot)]
        regions[Int(slot)] = nil
        freeSlots.append(slot)
        return region
    }

    /// Appends to `slots` the slot of every region whose boundary may lie within `margin` metres of
    /// `coordinate` or that may contain it: every region whose signed distance is at most `margin` is
    /// among them, each once, in no particular order. Appends nothing for a coordinate out of range.
    ///
    /// Allocates nothing while `slots` has room. `margin` must be 0 or more (infinity lists every region).
    public func candidates(near coordinate: Coordinate, within margin: Double, into slots: inout [Int32]) {
        precondition(margin >= 0, "the margin must be 0 or more metres, not \(margin)")
        guard coordinate.latitude.isFinite, abs(coordinate.latitude) <= 90, coordinate.longitude.isFinite else {
            return
        }
        let normal = RegionCap.normal(coordinate)
        // The caps allow for the plane's error in a polygon's distances; this does the same for the margin.
        let widening = RegionCap.angle(margin * 1.01 + 1)
        caps.withUnsafeBufferPointer { caps in
            extents.withUnsafeBufferPointer { extents in
                for slot in wide where caps[Int(slot)].admits(normal, widenedBy: widening) { slots.append(slot) }
                guard let query = grid.clippedExtent(around: coordinate, radians: widening) else { return }
                guard query.cellCount <= Self.maximumCellsPerQuery else {
                    for slot in extents.indices where extents[slot].rowCount > 0 {
                        if caps[slot].admits(normal, widenedBy: widening) { slots.append(Int32(slot)) }
                    }
                    return
                }
                let columns = grid.columns
                for rowOffset in 0..<query.rowCount {
                    let row = query.row + rowOffset
                    var column = query.column
                    for columnOffset in 0..<query.columnCount {
                        defer { column = column + 1 == columns ? 0 : column + 1 }
                        guard let bucket = cells[grid.key(row: row, column: column)] else { continue }
                        for slot in buckets[Int(bucket)] where caps[Int(slot)].admits(normal, widenedBy: widening) {
                            // Report a region from the first of the query's cells it is listed in (row by row,
                            // west to east): skip it when it is also in the cell below or the one to the west.
                            let extent = extents[Int(slot)]
                            if rowOffset > 0, extent.row < row { continue }
                            if columnOffset > 0,
                                extent.contains(column: column == 0 ? columns - 1 : column - 1, of: columns)
                            {
                                continue
                            }
                            slots.append(slot)
                        }
                    }
                }
            }
        }
    }

    /// Takes `slot` out of the cells or the wide regions, and marks it free until it is placed again.
    private mutating func unlist(_ slot: Int32) {
        let extent = extents[Int(slot)]
        extents[Int(slot)] = .free
        if extent == .wide {
            if let position = wide.firstIndex(of: slot) {
                wide.swapAt(position, wide.count - 1)
                wide.removeLast()
            }
            return
        }
        for key in grid.keys(of: extent) {
            guard let bucket = cells[key], let position = buckets[Int(bucket)].firstIndex(of: slot) else {
                preconditionFailure("slot \(slot) is missing from cell \(key)")
            }
            buckets[Int(bucket)].swapAt(position, buckets[Int(bucket)].count - 1)
            buckets[Int(bucket)].removeLast()
            if buckets[Int(bucket)].isEmpty {
                buckets[Int(bucket)] = []
                cells[key] = nil
                freeBuckets.append(bucket)
            }
        }
    }

    /// Adds `slot` to the list of the cell `key`, giving the cell a bucket if it has none.
    private mutating func list(_ slot: Int32, inCell key: Int32) {
        if let bucket = cells[key] {
            buckets[Int(bucket)].append(slot)
        } else if let bucket = freeBuckets.popLast() {
            cells[key] = bucket
            buckets[Int(bucket)].append(slot)
        } else {
            cells[key] = Int32(buckets.count)
            buckets.append([slot])
        }
    }
}

extension RegionGrid.Extent {
    /// The extent of a free slot.
    static let free = Self(row: 0, rowCount: 0, column: 0, columnCount: 0)
    /// The extent of a wide region.
    static let wide = Self(row: 0, rowCount: -1, column: 0, columnCount: 0)
}
