import Glibc

/// The cells of ``RegionIndex``: a uniform grid of latitude and longitude, `1 / cellsPerDegree` degrees
/// square, over the band between 85° S and 85° N; beyond it the meridians converge too fast for cells of
/// one size, and regions that reach there are kept apart (``RegionIndex``'s wide regions).
///
/// Extents are computed on the sphere of unit normals, where a ``RegionCap`` is a spherical cap: its
/// latitudes are its center's ± its angle, and its longitudes its center's ± asin(sin angle / cos latitude),
/// both exact. Columns wrap around the antimeridian.
struct RegionGrid: Hashable, Sendable {
    /// A rectangle of cells: `rowCount` rows from `row` northwards, `columnCount` columns from `column`
    /// eastwards, wrapping from the last column to column 0.
    struct Extent: Hashable, Sendable {
        var row: Int32
        var rowCount: Int32
        var column: Int32
        var columnCount: Int32

        var cellCount: Int { Int(rowCount) * Int(columnCount) }

        /// Whether the extent holds `column` (of a grid of `columns`).
        @inline(__always)
        func contains(column other: Int32, of columns: Int32) -> Bool {
            var offset = other - column
            if offset < 0 { offset += columns }
            return offset < columnCount
        }
    }

    let cellsPerDegree: Int32
    /// The band of cells, degrees either side of the equator.
    static let bandLatitude = 85.0

    init(cellsPerDegree: Int32) {
        precondition(cellsPerDegree >= 1 && cellsPerDegree <= 100, "cells per degree must be within 1 ... 100")
        self.cellsPerDegree = cellsPerDegree
    }

    var columns: Int32 { 360 * cellsPerDegree }
    /// The band's first row and the row after its last.
    var firstRow: Int32 { Int32(90 - Self.bandLatitude) * cellsPerDegree }
    var rowLimit: Int32 { Int32(90 + Self.bandLatitude) * cellsPerDegree }

    /// The key of a cell in ``RegionIndex``'s table.
    @inline(__always)
    func key(row: Int32, column: Int32) -> Int32 { row * columns + column }

    /// The keys of the cells of `extent`, row by row, west to east.
    func keys(of extent: Extent) -> Keys { Keys(extent: extent, columns: columns) }

    /// The keys of the cells of an extent, row by row, west to east.
    struct Keys: Sequence, IteratorProtocol {
        let extent: Extent
        let columns: Int32
        private var rowOffset: Int32 = 0
        private var columnOffset: Int32 = 0

        init(extent: Extent, columns: Int32) {
            self.extent = extent
            self.columns = columns
        }

        mutating func next() -> Int32? {
            guard rowOffset < extent.rowCount, extent.columnCount > 0 else { return nil }
            var column = extent.column + columnOffset
            if column >= columns { column -= columns }
            let key = (extent.row + rowOffset) * columns + column
            columnOffset += 1
            if columnOffset == extent.columnCount {
                columnOffset = 0
                rowOffset += 1
            }
            return key
        }
    }

    /// The cells within `radians` of `center` (latitude within ±90°, longitude -180 ... 180), or nil when
    /// they reach beyond the band or number more than `maximumCells`.
    func extent(around center: Coordinate, radians: Double, maximumCells: Int) -> Extent? {
        let radians = min(radians, Double.pi)
        let angle = radians * Degrees.degreesPerRadian + Self.slack
        guard center.latitude - angle >= -Self.bandLatitude, center.latitude + angle <= Self.bandLatitude else {
            return nil
        }
        let extent = cells(around: center, radians: radians)
        return extent.cellCount <= maximumCells ? extent : nil
    }

    /// The cells of the band within `radians` of `center` (latitude within ±90°, any finite longitude);
    /// nil when none is.
    func clippedExtent(around center: Coordinate, radians: Double) -> Extent? {
        let radians = min(radians, Double.pi)
        let angle = radians * Degrees.degreesPerRadian + Self.slack
        guard center.latitude - angle < Self.bandLatitude, center.latitude + angle > -Self.bandLatitude else {
            return nil
        }
        return cells(around: center, radians: radians)
    }

    /// The cells of the band within `radians` (at most π) of `center`.
    private func cells(around center: Coordinate, radians: Double) -> Extent {
        let scale = Double(cellsPerDegree)
        let angle = radians * Degrees.degreesPerRadian + Self.slack
        let latitude = center.latitude
        let row = max(Int32(((latitude - angle + 90) * scale).rounded(.down)), firstRow)
        let lastRow = min(Int32(((latitude + angle + 90) * scale).rounded(.down)), rowLimit - 1)
        let rowCount = lastRow - row + 1
        // A cap that holds a pole spans every longitude.
        let sine = sin(min(radians, Double.pi / 2))
        let cosine = Degrees.sincos(latitude).cos
        guard sine < cosine else { return Extent(row: row, rowCount: rowCount, column: 0, columnCount: columns) }
        let halfWidth = asin(sine / cosine) * Degrees.degreesPerRadian * (1 + 1e-12) + Self.slack
        let longitude = center.longitude.remainder(dividingBy: 360)
        let firstColumn = Int(((longitude - halfWidth + 180) * scale).rounded(.down))
        let lastColumn = Int(((longitude + halfWidth + 180) * scale).rounded(.down))
        let count = lastColumn - firstColumn + 1
        guard count < Int(columns) else {
            return Extent(row: row, rowCount: rowCount, column: 0, columnCount: columns)
        }
        var column = firstColumn % Int(columns)
        if column < 0 { column += Int(columns) }
        return Extent(row: row, rowCount: rowCount, column: Int32(column), columnCount: Int32(count))
    }

    /// Degrees added to every extent against rounding: 10⁻⁹°, 0.1 mm.
    private static let slack = 1e-9
}
