/// The declination along a vehicle's track, for the heading pipeline: the model is evaluated at the corners
/// of a cell of 1° of latitude by 1° of longitude, once per cell, height band of 500 m and UTC day, and the
/// field's north and east components are interpolated within the cell.
///
/// A lookup in the current cell costs a bilinear interpolation and one `atan2`: about 46 ns, against 290 ns
/// for the geodesic distance between two fixes (Benchmarks/README.md). Entering another cell, height band or
/// day costs four syntheses, about 3 µs. A car at 100 km/h crosses a cell about once an hour.
///
/// **Accuracy.** Within |latitude| < 80°, wherever H ≥ 6000 nT at the point (the normal ``MagneticZone``,
/// i.e. away from the magnetic poles), the declination differs from a direct synthesis at the point, height
/// and time by at most 0.05°, and by 0.03° in the worst case measured (`MagneticCacheTests` checks the bound
/// on a grid of 142,000 points): 0.022° from interpolating over 1° (the worst of a grid of 0.1° by 0.2° over
/// that band, WMM2025 in 2026, off the northern tip of the Yamal peninsula at 73.5° N 71.5° E), 0.007° from
/// evaluating at the middle of the 500 m height band (the declination changes by up to 0.027° per km of
/// height there), and 0.001° from evaluating at 12:00 UTC of the day (it changes by up to 0.73° a year).
/// Interpolating the north and east components rather than the angle itself is what allows cells this
/// large: the angle curves sharply where H is small, the components do not (interpolating D over the same
/// cells errs by up to 0.12°). Cells of 2° would err by up to 0.08°, cells of 0.5° by 0.006°. Nearer the
/// magnetic poles the error grows with 1 / H (up to 0.05° where 3000 nT ≤ H < 6000 nT), but so does the
/// model's own uncertainty, which is never below 0.26° and at H = 6000 nT already 0.94°: the cache stays
/// well within it.
///
/// A value type without I/O or clock reads: the caller passes the time (GPS time of the fix) and owns the
/// cache; copies are independent.
public struct DeclinationCache: Sendable {
    /// The side of a cell in degrees of latitude and of longitude.
    public static let cellDegrees = 1.0
    /// The height band in metres: the model is evaluated at the middle of the band the height is in.
    public static let heightBandMeters = 500.0

    /// The model the cache evaluates: the one given, or else ``MagneticModel/wmm2025``, parsed at the first
    /// lookup rather than at the start: an agent whose receiver sends no heading never pays its 0.3 ms.
    private lazy var model: MagneticModel = .wmm2025
    /// How many times the cache has evaluated the model (four syntheses each time): once per cell, height
    /// band and UTC day entered.
    public private(set) var refreshes = 0

    private var cell: Cell?

    /// A cache of `model`'s declinations; without one, of ``MagneticModel/wmm2025``'s.
    public init(model: MagneticModel? = nil) {
        if let model { self.model = model }
    }

    /// The declination at a position and time, from the current cell, or after evaluating the model at the
    /// corners of a new one when the position has left the cell, the height its band, or the time its UTC
    /// day.
    ///
    /// - Parameters:
    ///   - coordinate: degrees, WGS84; latitude -90 ... 90, longitude any finite value.
    ///   - altitudeHAE: height above the WGS84 ellipsoid, metres; nil or NaN (unknown, as for a 2D fix)
    ///     counts as 0.
    ///   - time: the time of the fix (UTC).
    /// - Returns: nil when the model cannot answer: a latitude beyond ±90° or NaN, a longitude that is not
    ///   finite, a height outside ``MagneticModel/computableAltitudes``, a time outside the model's
    ///   ``MagneticModel/computableYears``. The cell is kept for the next lookup.
    public mutating func declination(
        at coordinate: Coordinate,
        altitudeHAE: Double?,
        time: Timestamp
    ) -> MagneticDeclination? {
        let height = altitudeHAE.flatMap { $0.isNaN ? nil : $0 } ?? 0
        guard abs(coordinate.latitude) <= 90, coordinate.longitude.isFinite,
            MagneticModel.computableAltitudes.contains(height)
        else { return nil }
        let position = Position(coordinate, height: height, time: time)
        if cell?.key != position.key {
            guard let fresh = Cell(position.key, model: model) else { return nil }
            cell = fresh
            refreshes += 1
        }
        return cell?.declination(at: position)
    }

    /// A lookup's cell, band and day, and where it is within the cell.
    private struct Position {
        var key: Key
        /// 0 ... 1 from the cell's southern edge to its northern one, and from its western to its eastern.
        var northward: Double
        var eastward: Double

        init(_ coordinate: Coordinate, height: Double, time: Timestamp) {
            let size = DeclinationCache.cellDegrees
            let rows = Int((90 / size).rounded())
            let columns = Int((180 / size).rounded())
            // The IEEE remainder is exact: -180 ... 180.
            let longitude = coordinate.longitude.remainder(dividingBy: 360)
            let row = min(max(Int((coordinate.latitude / size).rounded(.down)), -rows), rows - 1)
            let column = min(max(Int((longitude / size).rounded(.down)), -columns), columns - 1)
            let (days, second) = time.seconds.quotientAndRemainder(dividingBy: 86_400)
            key = Key(
                row: row,
                column: column,
                band: Int((height / DeclinationCache.heightBandMeters).rounded()),
                day: second < 0 ? days - 1 : days
            )
            northward = min(max((coordinate.latitude - Double(row) * size) / size, 0), 1)
            eastward = min(max((longitude - Double(column) * size) / size, 0), 1)
        }
    }

    /// What identifies the corners a lookup is interpolated from.
    private struct Key: Hashable {
        /// The cell's south-west corner in units of ``DeclinationCache/cellDegrees``.
        var row: Int
        var column: Int
        /// The height band in units of ``DeclinationCache/heightBandMeters``, rounded to the nearest.
        var band: Int
        /// Days since 1970-01-01 (UTC).
        var day: Int64
    }

    /// The field's north and east components at the corners of a cell, at the middle of its height band
    /// and at 12:00 UTC of its day.
    private struct Cell {
        let key: Key
        let southWest: (north: Double, east: Double)
        let southEast: (north: Double, east: Double)
        let northWest: (north: Double, east: Double)
        let northEast: (north: Double, east: Double)
        let isWithinValidity: Bool

        init?(_ key: Key, model: MagneticModel) {
            let (start, overflow) = key.day.multipliedReportingOverflow(by: 86_400)
            guard !overflow, start < Int64.max - 43_200 else { return nil }
            let year = Timestamp(seconds: start + 43_200).decimalYear
            let height = Double(key.band) * DeclinationCache.heightBandMeters
            let size = DeclinationCache.cellDegrees
            func corner(_ row: Int, _ column: Int) -> MagneticField? {
                let coordinate = Coordinate(latitude: Double(row) * size, longitude: Double(column) * size)
                return model.field(at: coordinate, altitudeHAE: height, year: year)
            }
            guard let southWest = corner(key.row, key.column),
                let southEast = corner(key.row, key.column + 1),
                let northWest = corner(key.row + 1, key.column),
                let northEast = corner(key.row + 1, key.column + 1)
            else { return nil }
            self.key = key
            self.southWest = (southWest.north, southWest.east)
            self.southEast = (southEast.north, southEast.east)
            self.northWest = (northWest.north, northWest.east)
            self.northEast = (northEast.north, northEast.east)
            isWithinValidity = southWest.isWithinValidity
        }

        /// The components interpolated bilinearly at the position, and the declination they point to.
        func declination(at position: Position) -> MagneticDeclination {
            let t = position.northward
            let s = position.eastward
            let north =
                (1 - t) * ((1 - s) * southWest.north + s * southEast.north)
                + t * ((1 - s) * northWest.north + s * northEast.north)
            let east =
                (1 - t) * ((1 - s) * southWest.east + s * southEast.east)
                + t * ((1 - s) * northWest.east + s * northEast.east)
            return MagneticDeclination(
                degrees: Degrees.atan2(east, north),
                horizontalIntensity: (north * north + east * east).squareRoot(),
                isWithinValidity: isWithinValidity
            )
        }
    }
}
