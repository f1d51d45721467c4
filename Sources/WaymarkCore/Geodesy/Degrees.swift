import Glibc

/// Trigonometry in degrees with exact reduction of the argument, after section 2 of Karney (2013): the
/// quadrant is removed exactly in degrees, so that sin 180° is 0, cos 90° is 0 and angles that differ by
/// a multiple of 360° give identical results.
enum Degrees {
    static let radiansPerDegree = Double.pi / 180
    static let degreesPerRadian = 180 / Double.pi

    /// Sine and cosine of `x` degrees; `x` finite. The sine keeps the sign of a zero `x`; the cosine is
    /// never -0.
    static func sincos(_ x: Double) -> (sin: Double, cos: Double) {
        let reduced = abs(x) < 360 ? x : x.truncatingRemainder(dividingBy: 360)
        let quadrant = (reduced / 90).rounded(.toNearestOrEven)
        return rotated(by: quadrant, radians: (reduced - 90 * quadrant) * radiansPerDegree, signOf: x)
    }

    /// Sine and cosine of `x + error` degrees, where `x` is in -180 ... 180 and `error` is the rounding
    /// error of an earlier subtraction (see ``difference(from:to:)``).
    static func sincos(_ x: Double, plus error: Double) -> (sin: Double, cos: Double) {
        let quadrant = (x / 90).rounded(.toNearestOrEven)
        let remainder = rounded(x - 90 * quadrant + error)
        return rotated(by: quadrant, radians: remainder * radiansPerDegree, signOf: x)
    }

    /// Sine and cosine of `quadrant` × 90° + `radians`, where |`radians`| ≤ π/4.
    private static func rotated(by quadrant: Double, radians: Double, signOf x: Double) -> (sin: Double, cos: Double) {
        let s = sin(radians)
        let c = cos(radians)
        var sine: Double
        var cosine: Double
        switch Int(quadrant) & 3 {
        case 0: (sine, cosine) = (s, c)
        case 1: (sine, cosine) = (c, -s)
        case 2: (sine, cosine) = (-s, -c)
        default: (sine, cosine) = (-c, s)
        }
        cosine += 0
        if sine == 0 { sine = Double(signOf: x, magnitudeOf: sine) }
        return (sine, cosine)
    }

    /// atan2(`y`, `x`) in degrees, -180 ... 180, computed so that the result of the underlying `atan2`
    /// is within ±45°, where it is most accurate.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        var y = y
        var x = x
        var quadrant = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quadrant = 2
        }
        if x < 0 {
            x = -x
            quadrant += 1
        }
        let angle = cLibraryAtan2(y, x) * degreesPerRadian
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// `y` - `x` reduced to -180 ... 180, with the rounding error of the result (`difference` + `error`
    /// is exact). The result is 180 (not -180) for an eastward half turn unless the error says otherwise.
    static func difference(from x: Double, to y: Double) -> (difference: Double, error: Double) {
        let first = exactSum(reduced(-x), reduced(y))
        var (difference, error) = exactSum(reduced(first.sum), first.error)
        if difference == 0 || abs(difference) == 180 {
            difference = Double(signOf: error == 0 ? y - x : -error, magnitudeOf: difference)
        }
        return (difference, error)
    }

    /// `x` reduced to -180 ... 180 (IEEE remainder by 360, which leaves -180 ... 180 as they are).
    private static func reduced(_ x: Double) -> Double { abs(x) <= 180 ? x : x.remainder(dividingBy: 360) }

    /// `x` rounded so that angles below 1/16° keep at most 57 fractional bits: tiny non-zero angles
    /// (1e-200°) would otherwise make nearly singular cases, and the step is 0.7 pm on the earth.
    static func rounded(_ x: Double) -> Double {
        let step = 1.0 / 16
        var magnitude = abs(x)
        if magnitude < step { magnitude = step - (step - magnitude) }
        return Double(signOf: x, magnitudeOf: magnitude)
    }

    /// `u` + `v` and the rounding error of that sum (Knuth's TwoSum): `sum` + `error` is exact.
    private static func exactSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let sum = u + v
        var uRounded = sum - v
        var vRounded = sum - uRounded
        uRounded -= u
        vRounded -= v
        return (sum, sum == 0 ? sum : 0 - (uRounded + vRounded))
    }
}

/// The C library's `atan2`, named apart from ``Degrees/atan2(_:_:)`` inside that type.
@inline(__always)
private func cLibraryAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
