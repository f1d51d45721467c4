extension MagneticModel {
    /// The field vector in the local geodetic frame and its yearly rate, nT and nT/yr.
    struct Vector {
        var north: Double
        var east: Double
        var down: Double
        var northRate: Double
        var eastRate: Double
        var downRate: Double
    }

    /// The WMM's reference radius of the earth, km.
    static let referenceRadius = 6_371.2
    /// The WGS84 semi-major axis, km, and first eccentricity squared, for the geodetic to geocentric
    /// conversion.
    private static let equatorialRadius = WGS84.equatorialRadius / 1_000
    private static let eccentricitySquared = WGS84.flattening * (2 - WGS84.flattening)

    /// The synthesis of the NOAA/BGS technical report "The US/UK World Magnetic Model for 2025-2030",
    /// section 1.2, as NOAA's `MAG_Geomag` computes it.
    ///
    /// The geodetic point is turned into geocentric spherical coordinates on WGS84; the associated Legendre
    /// functions of sin φ' and their derivatives come from the Gauss-normalised recursion of NOAA's
    /// `MAG_PcupLow` (the Schmidt factors are folded into ``terms``), one order at a time, so that nothing is
    /// stored but scalars; the field and its secular variation are summed in the same pass, with
    /// g(t) = g + (t - t0) ġ, and rotated from the geocentric to the geodetic frame.
    ///
    /// At a geographic pole (|cos φ'| < 1e-10, NOAA's threshold) the east component cannot be divided by
    /// cos φ': it is the limit along the meridian of `longitude`, from the order-1 terms alone, as in
    /// `MAG_SummationSpecial`. North and east there refer to that meridian.
    ///
    /// - Parameters: latitude and longitude in degrees (latitude within ±90, both finite), the height
    ///   above the ellipsoid in kilometres, years since ``epoch``. Allocates nothing.
    func vector(latitude: Double, longitude: Double, heightKilometres height: Double, years: Double) -> Vector {
        let (sinLatitude, cosLatitude) = Degrees.sincos(latitude)

        // Geodetic to geocentric: x = sin φ' and z = cos φ' of the geocentric latitude φ', radius r.
        let e2 = Self.eccentricitySquared
        let primeVertical = Self.equatorialRadius / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        let p = (primeVertical + height) * cosLatitude
        let q = (primeVertical * (1 - e2) + height) * sinLatitude
        let radius = (p * p + q * q).squareRoot()
        let point = Point(
            x: q / radius,
            z: p / radius,
            ratio: Self.referenceRadius / radius,
            longitude: Degrees.sincos(longitude),
            years: years
        )
        var sums = terms.withUnsafeBufferPointer { Self.sums(of: $0, maximumDegree: maximumDegree, at: point) }

        if abs(point.z) > 1e-10 {
            sums.east /= point.z
            sums.eastRate /= point.z
        } else {
            sums.east = sums.eastAtPole
            sums.eastRate = sums.eastRateAtPole
        }

        // Rotate by ψ = φ' - φ from the geocentric to the geodetic frame.
        let sinPsi = point.x * cosLatitude - point.z * sinLatitude
        let cosPsi = point.z * cosLatitude + point.x * sinLatitude
        return Vector(
            north: sums.north * cosPsi - sums.radial * sinPsi,
            east: sums.east,
            down: sums.north * sinPsi + sums.radial * cosPsi,
            northRate: sums.northRate * cosPsi - sums.radialRate * sinPsi,
            eastRate: sums.eastRate,
            downRate: sums.northRate * sinPsi + sums.radialRate * cosPsi
        )
    }

    /// A point in geocentric spherical coordinates, as the sums need it.
    private struct Point {
        /// sin φ' and cos φ' of the geocentric latitude.
        var x: Double
        var z: Double
        /// a / r: the reference radius over the geocentric radius.
        var ratio: Double
        var longitude: (sin: Double, cos: Double)
        var years: Double
    }

    /// The sums over the terms, in the geocentric frame: north (−∂V/r∂φ'), east before its division by
    /// cos φ' (and its limit at the poles), and the radial component pointing down (∂V/∂r), with their rates.
    private struct Sums {
        var north = 0.0
        var east = 0.0
        var radial = 0.0
        var northRate = 0.0
        var eastRate = 0.0
        var radialRate = 0.0
        var eastAtPole = 0.0
        var eastRateAtPole = 0.0
    }

    private static func sums(
        of terms: UnsafeBufferPointer<Term>,
        maximumDegree: Int,
        at point: Point
    ) -> Sums {
        let x = point.x
        let z = point.z
        var sums = Sums()
        // cos mλ and sin mλ, P(m, m) and its derivative, (a/r)^(m+2): advanced once per order m.
        var cosOrder = 1.0
        var sinOrder = 0.0
        var diagonal = 1.0
        var diagonalDerivative = 0.0
        var diagonalPower = point.ratio * point.ratio
        var index = 0
        for m in 0...maximumDegree {
            if m > 0 {
                (cosOrder, sinOrder) = (
                    cosOrder * point.longitude.cos - sinOrder * point.longitude.sin,
                    cosOrder * point.longitude.sin + sinOrder * point.longitude.cos
                )
                diagonalDerivative = z * diagonalDerivative + x * diagonal
                diagonal *= z
                diagonalPower *= point.ratio
            }
            let order = Double(m)
            // P(n, m), its derivative along the colatitude θ (NOAA's sign: -dP/dφ'), the same for n - 1,
            // and (a/r)^(n+2), starting at n = m.
            var legendre = diagonal
            var derivative = diagonalDerivative
            var previous = 0.0
            var previousDerivative = 0.0
            var power = diagonalPower
            // P(n, 1) / cos φ', finite at the poles, for order 1 only.
            var polar = 1.0
            var previousPolar = 0.0
            for n in m...maximumDegree {
                if n > m {
                    let k = terms[index].recursion
                    (previous, legendre) = (legendre, x * legendre - k * previous)
                    (previousDerivative, derivative) = (
                        derivative, x * derivative - z * previous - k * previousDerivative
                    )
                    if m == 1 { (previousPolar, polar) = (polar, x * polar - k * previousPolar) }
                    power *= point.ratio
                }
                if n == 0 { continue }
                let term = terms[index]
                index += 1
                let g = term.g + point.years * term.gRate
                let h = term.h + point.years * term.hRate
                let along = (g * cosOrder + h * sinOrder) * power
                let across = (g * sinOrder - h * cosOrder) * power
                let alongRate = (term.gRate * cosOrder + term.hRate * sinOrder) * power
                let acrossRate = (term.gRate * sinOrder - term.hRate * cosOrder) * power
                sums.north += along * derivative
                sums.east += order * across * legendre
                sums.radial -= term.radial * along * legendre
                sums.northRate += alongRate * derivative
                sums.eastRate += order * acrossRate * legendre
                sums.radialRate -= term.radial * alongRate * legendre
                if m == 1 {
                    sums.eastAtPole += across * polar
                    sums.eastRateAtPole += acrossRate * polar
                }
            }
        }
        return sums
    }
}
