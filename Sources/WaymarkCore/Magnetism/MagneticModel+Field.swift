extension MagneticModel {
    /// The field at a point and a decimal year: declination, inclination, intensities, components, grid
    /// variation where defined, and their yearly rates.
    ///
    /// - Parameters:
    ///   - coordinate: geodetic latitude (-90 ... 90) and longitude (any finite value), degrees, WGS84.
    ///   - altitudeHAE: height above the WGS84 ellipsoid in metres (not above mean sea level: the geoid
    ///     differs by up to 100 m, which changes the field by well under 0.1 nT).
    ///   - year: the decimal year, as ``Timestamp/decimalYear`` computes it: 2026.5 is 2 July 2026.
    /// - Returns: the field; ``MagneticField/isWithinValidity`` is false outside ``validYears`` or
    ///   ``validAltitudes``, where the model extrapolates. `nil` when it cannot be computed: a latitude
    ///   beyond ±90° or NaN, a longitude that is not finite, a height outside ``computableAltitudes`` or NaN,
    ///   or a year outside ``computableYears`` or NaN. Every value of a field returned is finite.
    ///
    /// About 0.65 µs on one core of a small x86 VM (Benchmarks/README.md); allocates nothing.
    public func field(at coordinate: Coordinate, altitudeHAE: Double, year: Double) -> MagneticField? {
        guard abs(coordinate.latitude) <= 90, coordinate.longitude.isFinite,
            Self.computableAltitudes.contains(altitudeHAE), computableYears.contains(year)
        else { return nil }
        let vector = vector(
            latitude: coordinate.latitude,
            longitude: coordinate.longitude,
            heightKilometres: altitudeHAE / 1_000,
            years: year - epoch
        )
        return MagneticField(
            vector,
            at: coordinate,
            isWithinValidity: validYears.contains(year) && Self.validAltitudes.contains(altitudeHAE)
        )
    }

    /// The field at a point and an instant: ``field(at:altitudeHAE:year:)`` at the instant's
    /// ``Timestamp/decimalYear``.
    public func field(at coordinate: Coordinate, altitudeHAE: Double, time: Timestamp) -> MagneticField? {
        field(at: coordinate, altitudeHAE: altitudeHAE, year: time.decimalYear)
    }
}

extension MagneticField {
    /// The elements of a field vector (NOAA's `MAG_CalculateGeoMagneticElements`,
    /// `MAG_CalculateSecularVariationElements` and `MAG_CalculateGridVariation`).
    init(_ vector: MagneticModel.Vector, at coordinate: Coordinate, isWithinValidity: Bool) {
        let x = vector.north
        let y = vector.east
        let z = vector.down
        let horizontal = (x * x + y * y).squareRoot()
        let total = (x * x + y * y + z * z).squareRoot()
        let declination = Degrees.atan2(y, x)
        let horizontalRate = (x * vector.northRate + y * vector.eastRate) / horizontal
        let declinationRate =
            Degrees.degreesPerRadian * (x * vector.eastRate - y * vector.northRate)
            / (horizontal * horizontal)

        var gridVariation: Double?
        if abs(coordinate.latitude) >= 55 {
            let longitude = coordinate.longitude.remainder(dividingBy: 360)
            let variation = (declination - (coordinate.latitude > 0 ? longitude : -longitude))
                .remainder(dividingBy: 360)
            gridVariation = variation == -180 ? 180 : variation
        }

        self.init(
            declination: declination,
            inclination: Degrees.atan2(z, horizontal),
            horizontalIntensity: horizontal,
            totalIntensity: total,
            north: x,
            east: y,
            down: z,
            gridVariation: gridVariation,
            rates: Rates(
                declination: declinationRate,
                inclination: Degrees.degreesPerRadian * (horizontal * vector.downRate - z * horizontalRate)
                    / (total * total),
                horizontalIntensity: horizontalRate,
                totalIntensity: (x * vector.northRate + y * vector.eastRate + z * vector.downRate) / total,
                north: vector.northRate,
                east: vector.eastRate,
                down: vector.downRate,
                gridVariation: gridVariation == nil ? nil : declinationRate
            ),
            isWithinValidity: isWithinValidity
        )
    }
}
