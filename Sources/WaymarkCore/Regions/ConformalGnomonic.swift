import Glibc

/// The plane a polygon's edges are straight in: the gnomonic projection of Gauss's conformal sphere,
/// centered on the polygon's reference point.
///
/// Gauss's conformal sphere maps the ellipsoid to a sphere of radius √(M₀N₀) with a scale of exactly 1 at
/// the reference and a stationary scale around it (1 ± 10⁻⁸ at 100 km), so that a geodesic maps to a
/// curve very nearly a great circle; the gnomonic projection maps great circles to straight lines.
/// Together they map a geodesic edge to a straight segment to within 0.02 mm at 50 km from the reference,
/// 0.3 mm at 100 km, 1.3 cm at 250 km and 19 cm at 500 km (measured against GeographicLib's geodesics;
/// the tests check the bound with this module's own geodesics). Distances are read in the metric of the
/// projection at the point (``metric(atX:y:)``), which is exact there and errs by h² ρ / R² at h metres
/// (R the earth's radius, ρ the distance from the reference): 2.5 parts in 10⁵ at 10 km when ρ is 100 km.
///
/// The longitude enters only as a difference from the reference, so the antimeridian is no seam; a pole
/// is an ordinary point of the sphere, so a polygon around it needs nothing special.
struct ConformalGnomonic: Sendable {
    /// The point of tangency.
    let reference: Coordinate
    /// Radius of the sphere, √(M₀N₀), metres.
    let radius: Double
    /// The sphere's longitude is `exponent` × the ellipsoid's, counted from the reference.
    let exponent: Double
    /// The sphere's isometric latitude is `exponent` × the ellipsoid's + `offset`.
    let offset: Double
    let sinReference: Double
    let cosReference: Double

    /// A point of the plane: metres east and north of the reference as the projection places them, and the
    /// cosine of the point's angle from the reference on the sphere (the projection holds where it is > 0).
    struct Point {
        var x: Double
        var y: Double
        var cosAngle: Double
    }

    /// e² = f (2 - f).
    static let eccentricitySquared = WGS84.flattening * (2 - WGS84.flattening)
    static let eccentricity = eccentricitySquared.squareRoot()

    init(reference: Coordinate) {
        let e2 = Self.eccentricitySquared
        let (sine, cosine) = Degrees.sincos(reference.latitude)
        let cos2 = cosine * cosine
        let w = 1 - e2 * sine * sine
        let primeVertical = WGS84.equatorialRadius / w.squareRoot()
        let meridian = primeVertical * (1 - e2) / w
        // n² = 1 + e'² cos⁴ φ₀ and k² = 1 + e'² cos² φ₀, with e'² = e² / (1 - e²).
        let exponentExcess = e2 * cos2 * cos2 / (1 - e2)
        let exponent = (1 + exponentExcess).squareRoot()
        let k = (1 + e2 * cos2 / (1 - e2)).squareRoot()
        // sin χ₀ = sin φ₀ / n; cos χ₀ = cos φ₀ k / n, which keeps its precision near the poles.
        let sinReference = sine / exponent
        let cosReference = cosine * k / exponent
        self.reference = reference
        self.radius = (meridian * primeVertical).squareRoot()
        self.exponent = exponent
        // offset = ψχ₀ - n ψ₀, written so that it stays finite at a pole, where both terms are infinite:
        // asinh(tan χ₀) - asinh(tan φ₀) = asinh(sin φ₀ (1 - n) / (cos² φ₀ k)) and (n - 1) asinh(tan φ₀) → 0.
        let oneLessExponent = -exponentExcess / (1 + exponent)
        let reduced = asinh(-sine * e2 * cos2 / ((1 - e2) * (1 + exponent) * k))
        let excess = cosine == 0 ? 0 : -oneLessExponent * asinh(sine / cosine)
        self.offset = reduced - excess + exponent * Self.eccentricity * atanh(Self.eccentricity * sine)
        self.sinReference = sinReference
        self.cosReference = cosReference
    }

    /// ψ = asinh(tan φ) - e atanh(e sin φ), infinite at the poles.
    static func isometricLatitude(_ sine: Double, _ cosine: Double) -> Double {
        asinh(sine / cosine) - eccentricity * atanh(eccentricity * sine)
    }

    /// The point of the plane for `coordinate` (latitude within ±90°, finite longitude).
    func project(_ coordinate: Coordinate) -> Point {
        let (sine, cosine) = Degrees.sincos(coordinate.latitude)
        let conformal = exponent * Self.isometricLatitude(sine, cosine) + offset
        let sinLatitude = tanh(conformal)
        let cosLatitude = 1 / cosh(conformal)
        let longitude = Degrees.difference(from: reference.longitude, to: coordinate.longitude).difference
        let (sinLongitude, cosLongitude) = Degrees.sincos(exponent * longitude)
        let cosAngle = sinReference * sinLatitude + cosReference * cosLatitude * cosLongitude
        let scale = radius / cosAngle
        return Point(
            x: scale * cosLatitude * sinLongitude,
            y: scale * (cosReference * sinLatitude - sinReference * cosLatitude * cosLongitude),
            cosAngle: cosAngle
        )
    }

    /// The upper triangular factor U of the projection's metric at (`x`, `y`): a small displacement
    /// (dx, dy) of the plane there is |U (dx, dy)| metres on the sphere, which is the ellipsoid's metre
    /// to within the conformal scale (1 at the reference, 1 ± 10⁻⁸ at 100 km from it, 1 ± 10⁻⁶ at 500 km).
    func metric(atX x: Double, y: Double) -> (xx: Double, xy: Double, yy: Double) {
        // The unit sphere's gnomonic metric G = ((1 + v²) du² - 2uv du dv + (1 + u²) dv²) / q², q = 1 + u² + v²,
        // det G = 1 / q³, factored as UᵀU.
        let u = x / radius
        let v = y / radius
        let q = 1 + u * u + v * v
        let root = (1 + v * v).squareRoot()
        return (xx: root / q, xy: -u * v / (root * q), yy: 1 / (root * q.squareRoot()))
    }
}
