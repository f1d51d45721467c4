import Glibc

extension InverseProblem {
    /// The hybrid problem for a trial α1 (section 3 of the paper): the geodesic that leaves point 1 at
    /// α1 and reaches the latitude of point 2, and how far its longitude misses λ12.
    struct Hybrid {
        /// λ12(α1) - λ12, radians: Newton's method drives it to 0.
        var longitudeError: Double
        var alpha1: SineSeries.Angle
        var alpha2: SineSeries.Angle
        var sigma1: SineSeries.Angle
        var sigma2: SineSeries.Angle
        var sigma12: Double
        var eps: Double
    }

    /// Solves λ12(α1) = λ12 by Newton's method from `start`, keeping a bracket of the root and bisecting
    /// when a step leaves it (section 4 of the paper), then measures the distance along the result.
    func solveByNewton(from start: SineSeries.Angle) -> Solution {
        var alpha1 = start
        // The bracket of the root: α1 of trials known to fall short of λ12 and to overshoot it.
        var below = (sin: Tolerance.tiny, cos: 1.0)
        var above = (sin: Tolerance.tiny, cos: -1.0)
        var iterations = 0
        var nearlyConverged = false
        var bracketCollapsed = false
        var hybrid = solveHybrid(alpha1: alpha1)
        while !bracketCollapsed && abs(hybrid.longitudeError) >= (nearlyConverged ? 8 : 1) * Tolerance.epsilon
            && iterations < Tolerance.maximumIterations
        {
            let error = hybrid.longitudeError
            let cotAlpha1 = alpha1.cos / alpha1.sin
            if error > 0 && (iterations > Tolerance.newtonIterations || cotAlpha1 > above.cos / above.sin) {
                above = alpha1
            } else if error < 0 && (iterations > Tolerance.newtonIterations || cotAlpha1 < below.cos / below.sin) {
                below = alpha1
            }
            iterations += 1
            if iterations < Tolerance.newtonIterations, let next = newtonStep(from: hybrid) {
                alpha1 = next
                nearlyConverged = abs(error) <= 16 * Tolerance.epsilon
            } else {
                alpha1 = Self.normalized((below.sin + above.sin) / 2, (below.cos + above.cos) / 2)
                nearlyConverged = false
                bracketCollapsed =
                    abs(below.sin - alpha1.sin) + (below.cos - alpha1.cos) < Tolerance.epsilon
                    || abs(alpha1.sin - above.sin) + (alpha1.cos - above.cos) < Tolerance.epsilon
            }
            hybrid = solveHybrid(alpha1: alpha1)
        }
        let s12 = Self.distanceOverB(eps: hybrid.eps, sigma12: hybrid.sigma12, from: hybrid.sigma1, to: hybrid.sigma2)
        return Solution(distance: s12 * WGS84.polarRadius, alpha1: alpha1, alpha2: hybrid.alpha2)
    }

    /// α1 after one Newton step, or `nil` when the derivative is not positive or the step leaves (0, π).
    private func newtonStep(from hybrid: Hybrid) -> SineSeries.Angle? {
        let derivative = longitudeDerivative(hybrid)
        guard derivative > 0 else { return nil }
        let step = -hybrid.longitudeError / derivative
        guard abs(step) < .pi else { return nil }
        let sinStep = sin(step)
        let cosStep = cos(step)
        let alpha1 = hybrid.alpha1
        let sinAlpha1 = alpha1.sin * cosStep + alpha1.cos * sinStep
        guard sinAlpha1 > 0 else { return nil }
        return Self.normalized(sinAlpha1, alpha1.cos * cosStep - alpha1.sin * sinStep)
    }

    /// dλ12/dα1 (eq. 46): the reduced length m12 over a cos α2 cos β2, or its limit at a vertex.
    private func longitudeDerivative(_ hybrid: Hybrid) -> Double {
        guard hybrid.alpha2.cos != 0 else { return -2 * WGS84.polarRatio * dn1 / beta1.sin }
        let m12 = reducedLengthOverB(eps: hybrid.eps, sigma12: hybrid.sigma12, from: hybrid.sigma1, to: hybrid.sigma2)
        return m12 * WGS84.polarRatio / (hybrid.alpha2.cos * beta2.cos)
    }

    /// The hybrid problem for α1: α0 (eq. 5), σ and ω at both ends (eqs. 11 and 12), α2 (eqs. 6 and 45),
    /// and λ12 = ω12 - f A3 sin α0 (σ12 + I3 terms) (eq. 8 with eqs. 23 and 24).
    func solveHybrid(alpha1 trial: SineSeries.Angle) -> Hybrid {
        var alpha1 = trial
        // An equatorial geodesic going east was handled before; perturb it so that α0 is defined.
        if beta1.sin == 0 && alpha1.cos == 0 { alpha1.cos = -Tolerance.tiny }
        let sinAlpha0 = alpha1.sin * beta1.cos
        // α1 is normalized: no need for `hypot`.
        let cosAlpha0 = (alpha1.cos * alpha1.cos + (alpha1.sin * beta1.sin) * (alpha1.sin * beta1.sin)).squareRoot()

        let sigma1 = Self.normalized(beta1.sin, alpha1.cos * beta1.cos)
        let omega1 = (sin: sinAlpha0 * beta1.sin, cos: alpha1.cos * beta1.cos)

        // sin α2 cos β2 = sin α0; cos α2 from eq. (45), exact when |β2| = |β1|.
        var alpha2 = (sin: beta2.cos != beta1.cos ? sinAlpha0 / beta2.cos : alpha1.sin, cos: 0.0)
        if beta2.cos != beta1.cos || abs(beta2.sin) != -beta1.sin {
            let latitudeTerm =
                beta1.cos < -beta1.sin
                ? (beta2.cos - beta1.cos) * (beta1.cos + beta2.cos)
                : (beta1.sin - beta2.sin) * (beta1.sin + beta2.sin)
            alpha2.cos = ((alpha1.cos * beta1.cos) * (alpha1.cos * beta1.cos) + latitudeTerm).squareRoot() / beta2.cos
        } else {
            alpha2.cos = abs(alpha1.cos)
        }
        let sigma2 = Self.normalized(beta2.sin, alpha2.cos * beta2.cos)
        let omega2 = (sin: sinAlpha0 * beta2.sin, cos: alpha2.cos * beta2.cos)

        // σ12 and ω12, each in [0, π].
        let sigma12 = atan2(
            max(0, sigma1.cos * sigma2.sin - sigma1.sin * sigma2.cos) + 0,
            sigma1.cos * sigma2.cos + sigma1.sin * sigma2.sin
        )
        let sinOmega12 = max(0, omega1.cos * omega2.sin - omega1.sin * omega2.cos) + 0
        let cosOmega12 = omega1.cos * omega2.cos + omega1.sin * omega2.sin
        // ω12 - λ12, taken as one angle so that it is accurate near 0.
        let eta = atan2(
            sinOmega12 * cosLambda12 - cosOmega12 * sinLambda12,
            cosOmega12 * cosLambda12 + sinOmega12 * sinLambda12
        )
        let eps = GeodesicSeries.epsilon(kSquared: cosAlpha0 * cosAlpha0 * WGS84.secondEccentricitySquared)
        let b312 = GeodesicSeries.c3(eps).difference(from: sigma1, to: sigma2)
        let omegaCorrection = -WGS84.flattening * GeodesicSeries.a3(eps) * sinAlpha0 * (sigma12 + b312)
        return Hybrid(
            longitudeError: eta + omegaCorrection,
            alpha1: trial,
            alpha2: alpha2,
            sigma1: sigma1,
            sigma2: sigma2,
            sigma12: sigma12,
            eps: eps
        )
    }

    /// s12 / b from σ1 to σ2 (eqs. 7, 15 and 17).
    static func distanceOverB(
        eps: Double,
        sigma12: Double,
        from sigma1: SineSeries.Angle,
        to sigma2: SineSeries.Angle
    ) -> Double {
        let a1 = 1 + GeodesicSeries.a1MinusOne(eps)
        return a1 * (sigma12 + GeodesicSeries.c1(eps).difference(from: sigma1, to: sigma2))
    }

    /// The reduced length m12 / b from σ1 to σ2 (eq. 38 with J12 of eqs. 40 to 43).
    func reducedLengthOverB(
        eps: Double,
        sigma12: Double,
        from sigma1: SineSeries.Angle,
        to sigma2: SineSeries.Angle
    ) -> Double {
        let a1MinusOne = GeodesicSeries.a1MinusOne(eps)
        let a2MinusOne = GeodesicSeries.a2MinusOne(eps)
        let a1 = 1 + a1MinusOne
        let a2 = 1 + a2MinusOne
        let c1 = GeodesicSeries.c1(eps)
        let c2 = GeodesicSeries.c2(eps)
        // J12 = (A1 - A2) σ12 + Σ (A1 C1_l - A2 C2_l) (sin 2lσ2 - sin 2lσ1).
        let j = SineSeries(
            c1: a1 * c1.c1 - a2 * c2.c1,
            c2: a1 * c1.c2 - a2 * c2.c2,
            c3: a1 * c1.c3 - a2 * c2.c3,
            c4: a1 * c1.c4 - a2 * c2.c4,
            c5: a1 * c1.c5 - a2 * c2.c5,
            c6: a1 * c1.c6 - a2 * c2.c6
        )
        let j12 = (a1MinusOne - a2MinusOne) * sigma12 + j.difference(from: sigma1, to: sigma2)
        // The parenthesized products cancel exactly for coincident points.
        return dn2 * (sigma1.cos * sigma2.sin) - dn1 * (sigma1.sin * sigma2.cos) - sigma1.cos * sigma2.cos * j12
    }
}
