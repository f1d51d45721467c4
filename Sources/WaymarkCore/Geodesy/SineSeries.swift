/// A Fourier sine series of six terms, Σ c_l sin 2lσ (l = 1 ... 6), as in eqs. (15), (23) and (40) of
/// Karney (2013), summed with Clenshaw's recurrence.
struct SineSeries {
    var c1: Double
    var c2: Double
    var c3: Double
    var c4: Double
    var c5: Double
    var c6: Double

    /// The sum at σ, given by its sine and cosine.
    @inline(__always)
    func callAsFunction(sin s: Double, cos c: Double) -> Double {
        let twiceCos2Sigma = 2 * (c - s) * (c + s)
        var next = c6
        var current = twiceCos2Sigma * next + c5
        (current, next) = (twiceCos2Sigma * current - next + c4, current)
        (current, next) = (twiceCos2Sigma * current - next + c3, current)
        (current, next) = (twiceCos2Sigma * current - next + c2, current)
        current = twiceCos2Sigma * current - next + c1
        return 2 * s * c * current
    }

    /// The sum at σ2 minus the sum at σ1.
    @inline(__always)
    func difference(from start: Angle, to end: Angle) -> Double {
        self(sin: end.sin, cos: end.cos) - self(sin: start.sin, cos: start.cos)
    }

    /// An angle by its sine and cosine.
    typealias Angle = (sin: Double, cos: Double)
}
