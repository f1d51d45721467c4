import Glibc

/// The inverse problem of Karney (2013) for WGS84, brought to the canonical configuration of the paper's
/// section 4: 0 ≤ λ12 ≤ 180°, -90° ≤ φ1 ≤ 0 and φ1 ≤ φ2 ≤ -φ1. ``solve()`` picks the meridional,
/// equatorial, short-line or general (Newton) solution and reports it in that configuration;
/// ``GeodesicInverse/init(_:of:)`` undoes the transformation.
struct InverseProblem {
    /// -1 when the points were swapped so that point 1 has the larger |latitude|.
    let swapSign: Double
    /// -1 when both latitudes were negated so that φ1 ≤ 0.
    let latitudeSign: Double
    /// -1 when the longitude difference was negated so that it is ≥ 0 (after a swap, flipped once more).
    let longitudeSign: Double

    /// The reduced latitudes β1 and β2 (tan β = (1 - f) tan φ).
    let beta1: SineSeries.Angle
    let beta2: SineSeries.Angle
    /// √(1 + e'² sin² β) at each point.
    let dn1: Double
    let dn2: Double

    /// λ12 in radians, 0 ... π, and its sine and cosine computed from the exact difference in degrees.
    let lambda12: Double
    let sinLambda12: Double
    let cosLambda12: Double
    /// 180° - λ12 in degrees, exact enough to tell a nearly antipodal equatorial pair.
    let lambda12Supplement: Double
    /// Whether point 1 (after the swap) is a pole.
    let startsAtPole: Bool

    /// The canonical problem for two points, or `nil` when a latitude is beyond ±90° or a coordinate is
    /// not finite.
    init?(from start: Coordinate, to end: Coordinate) {
        guard abs(start.latitude) <= 90, abs(end.latitude) <= 90, start.longitude.isFinite,
            end.longitude.isFinite
        else { return nil }

        let (difference, error) = Degrees.difference(from: start.longitude, to: end.longitude)
        var longitudeSign = Double(signOf: difference, magnitudeOf: 1)
        let lon12 = longitudeSign * difference
        let lon12Error = longitudeSign * error
        lambda12 = lon12 * Degrees.radiansPerDegree
        (sinLambda12, cosLambda12) = Degrees.sincos(lon12, plus: lon12Error)
        lambda12Supplement = (180 - lon12) - lon12Error

        var latitude1 = Degrees.rounded(start.latitude)
        var latitude2 = Degrees.rounded(end.latitude)
        swapSign = abs(latitude1) < abs(latitude2) ? -1 : 1
        if swapSign < 0 {
            longitudeSign = -longitudeSign
            swap(&latitude1, &latitude2)
        }
        self.longitudeSign = longitudeSign
        latitudeSign = Double(signOf: -latitude1, magnitudeOf: 1)
        latitude1 *= latitudeSign
        latitude2 *= latitudeSign
        startsAtPole = latitude1 == -90

        let beta1 = Self.reducedLatitude(latitude1)
        var beta2 = Self.reducedLatitude(latitude2)
        // When |β2| = |β1| up to rounding, make it exact: the hybrid problem relies on the symmetry.
        if beta1.cos < -beta1.sin {
            if beta2.cos == beta1.cos { beta2.sin = Double(signOf: beta2.sin, magnitudeOf: beta1.sin) }
        } else if abs(beta2.sin) == -beta1.sin {
            beta2.cos = beta1.cos
        }
        self.beta1 = beta1
        self.beta2 = beta2
        dn1 = (1 + WGS84.secondEccentricitySquared * beta1.sin * beta1.sin).squareRoot()
        dn2 = (1 + WGS84.secondEccentricitySquared * beta2.sin * beta2.sin).squareRoot()
    }

    /// sin β and cos β for a latitude in degrees, cos β at least ``Tolerance/tiny`` so that the poles have
    /// a direction.
    private static func reducedLatitude(_ latitude: Double) -> SineSeries.Angle {
        let (sinPhi, cosPhi) = Degrees.sincos(latitude)
        // `hypot` (correctly rounded, unlike ``normalized(_:_:)``) for the end points themselves: the
        // direction of a line of millimetres rests on the last bits of β1 and β2. It costs 2 % here.
        let length = hypot(WGS84.polarRatio * sinPhi, cosPhi)
        var beta = (sin: WGS84.polarRatio * sinPhi / length, cos: cosPhi / length)
        beta.cos = max(Tolerance.tiny, beta.cos)
        return beta
    }

    /// (`sin`, `cos`) scaled to unit length.
    ///
    /// Without `hypot`, which guards against overflow and underflow that cannot happen here: one of the
    /// two is at least of the order of ``Tolerance/tiny``, whose square is still a normal number.
    static func normalized(_ sin: Double, _ cos: Double) -> SineSeries.Angle {
        let length = (sin * sin + cos * cos).squareRoot()
        return (sin / length, cos / length)
    }

    /// A solution in the canonical configuration: the distance and the azimuths α1 and α2.
    struct Solution {
        var distance: Double
        var alpha1: SineSeries.Angle
        var alpha2: SineSeries.Angle
    }

    /// Solves the problem: along a meridian, along the equator, directly for very short lines, else by
    /// Newton's method on α1.
    func solve() -> Solution {
        if startsAtPole || sinLambda12 == 0, let meridional = solveAlongMeridian() { return meridional }
        // Along the equator unless the points are so nearly antipodal that the geodesic leaves it
        // (λ12 > (1 - f) 180°, section 5 of the paper).
        if beta1.sin == 0 && lambda12Supplement >= WGS84.flattening * 180 {
            return Solution(
                distance: WGS84.equatorialRadius * lambda12,
                alpha1: (1, 0),
                alpha2: (1, 0)
            )
        }
        switch startingPoint() {
        case .solved(let solution): return solution
        case .estimate(let alpha1): return solveByNewton(from: alpha1)
        }
    }

    /// The meridian through both points (λ12 = 0 or 180°, or point 1 at a pole), if it is the shortest
    /// path: on WGS84 it always is, up to the rounding of nearly antipodal points.
    private func solveAlongMeridian() -> Solution? {
        let alpha1 = (sin: sinLambda12, cos: cosLambda12)
        // tan β = tan σ cos α, with α2 = 0 (heading north at point 2).
        let sigma1 = (sin: beta1.sin, cos: alpha1.cos * beta1.cos)
        let sigma2 = (sin: beta2.sin, cos: beta2.cos)
        let sigma12 = atan2(
            max(0, sigma1.cos * sigma2.sin - sigma1.sin * sigma2.cos) + 0,
            sigma1.cos * sigma2.cos + sigma1.sin * sigma2.sin
        )
        let eps = WGS84.thirdFlattening
        let s12 = Self.distanceOverB(eps: eps, sigma12: sigma12, from: sigma1, to: sigma2)
        let m12 = reducedLengthOverB(eps: eps, sigma12: sigma12, from: sigma1, to: sigma2)
        guard sigma12 < Tolerance.sqrtEpsilon || m12 >= 0 else { return nil }
        // Coincident points may give a distance of -0 or a tiny negative one: they are 0 apart.
        let coincident = sigma12 < 3 * Tolerance.tiny || (sigma12 < Tolerance.epsilon && (s12 < 0 || m12 < 0))
        return Solution(distance: coincident ? 0 : s12 * WGS84.polarRadius, alpha1: alpha1, alpha2: (0, 1))
    }
}
