import Glibc

extension InverseProblem {
    /// Where Newton's method starts, or the solution itself for a very short line.
    enum StartingPoint {
        /// Short enough (σ12 below ``Tolerance/shortLineSigma``) to be solved on a sphere of radius b·dnm.
        case solved(Solution)
        /// An estimate of α1 to refine.
        case estimate(SineSeries.Angle)
    }

    /// The first estimate of α1 (section 4 of the paper): the great circle on an auxiliary sphere, with
    /// the longitude scaled by the mean dn for short lines (eq. 51), or the solution of the astroid
    /// problem (eqs. 55 to 57) for nearly antipodal points.
    func startingPoint() -> StartingPoint {
        // β12 = β2 - β1 in [0, π), and β2 + β1 in (-π, 0].
        let sinBeta12 = beta2.sin * beta1.cos - beta2.cos * beta1.sin
        let cosBeta12 = beta2.cos * beta1.cos + beta2.sin * beta1.sin
        let sinBeta12Sum = beta2.sin * beta1.cos + beta2.cos * beta1.sin

        let isShort = cosBeta12 >= 0 && sinBeta12 < 0.5 && beta2.cos * lambda12 < 0.5
        var omega12 = (sin: sinLambda12, cos: cosLambda12)
        var dnm = Double.nan
        if isShort {
            // sin² of the mean reduced latitude, (β1 + β2) / 2.
            var sinBetaMean2 = (beta1.sin + beta2.sin) * (beta1.sin + beta2.sin)
            sinBetaMean2 /= sinBetaMean2 + (beta1.cos + beta2.cos) * (beta1.cos + beta2.cos)
            dnm = (1 + WGS84.secondEccentricitySquared * sinBetaMean2).squareRoot()
            let omega = lambda12 / (WGS84.polarRatio * dnm)
            omega12 = (sin(omega), cos(omega))
        }

        // The spherical solution for α1 (eqs. 49 and 50), in the form that avoids cancellation.
        var alpha1 = (sin: beta2.cos * omega12.sin, cos: 0.0)
        let sinOmegaSquared = omega12.sin * omega12.sin
        alpha1.cos =
            omega12.cos >= 0
            ? sinBeta12 + beta2.cos * beta1.sin * sinOmegaSquared / (1 + omega12.cos)
            : sinBeta12Sum - beta2.cos * beta1.sin * sinOmegaSquared / (1 - omega12.cos)
        let sinSigma12 = hypot(alpha1.sin, alpha1.cos)
        let cosSigma12 = beta1.sin * beta2.sin + beta1.cos * beta2.cos * omega12.cos

        if isShort && sinSigma12 < Tolerance.shortLineSigma {
            let alpha2 = Self.normalized(
                beta1.cos * omega12.sin,
                sinBeta12
                    - beta1.cos * beta2.sin
                    * (omega12.cos >= 0 ? sinOmegaSquared / (1 + omega12.cos) : 1 - omega12.cos)
            )
            let sigma12 = atan2(sinSigma12, cosSigma12)
            return .solved(
                Solution(
                    distance: sigma12 * WGS84.polarRadius * dnm,
                    alpha1: Self.sanitized(alpha1),
                    alpha2: alpha2
                )
            )
        }
        // The spherical estimate is good unless the points are nearly antipodal: then solve the astroid.
        if cosSigma12 < 0 && sinSigma12 < 6 * abs(WGS84.thirdFlattening) * .pi * beta1.cos * beta1.cos {
            alpha1 = astroidEstimate(sinBeta12Sum: sinBeta12Sum)
        }
        return .estimate(Self.sanitized(alpha1))
    }

    /// α1 for nearly antipodal points, from the astroid of eq. (55) in coordinates (x, y) scaled so that
    /// the antipode is at the origin and the end of the cut at (-1, 0) (eq. 53).
    private func astroidEstimate(sinBeta12Sum: Double) -> SineSeries.Angle {
        let lambda12MinusPi = atan2(-sinLambda12, -cosLambda12)
        let eps = GeodesicSeries.epsilon(kSquared: beta1.sin * beta1.sin * WGS84.secondEccentricitySquared)
        let lambdaScale = WGS84.flattening * beta1.cos * GeodesicSeries.a3(eps) * .pi
        let betaScale = lambdaScale * beta1.cos
        let x = lambda12MinusPi / lambdaScale
        let y = sinBeta12Sum / betaScale
        if y > -Tolerance.astroidCut && x > -1 - Tolerance.astroidThreshold {
            // On the cut, where the geodesics from point 1 cross: eq. (56).
            let sinAlpha1 = min(1, -x)
            return (sinAlpha1, -(1 - sinAlpha1 * sinAlpha1).squareRoot())
        }
        // Estimate ω12 from the astroid's root (eq. 57) and use it in the spherical formula for α1:
        // ω12 is near π, so work with π - ω12.
        let k = Self.astroid(x, y)
        let omega12a = lambdaScale * -x * k / (1 + k)
        let omega12 = (sin: sin(omega12a), cos: -cos(omega12a))
        let sinOmegaSquared = omega12.sin * omega12.sin
        return (
            beta2.cos * omega12.sin,
            sinBeta12Sum - beta2.cos * beta1.sin * sinOmegaSquared / (1 - omega12.cos)
        )
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0 (eq. 55), 0 when y = 0 and
    /// |x| ≤ 1; computed as in Vermeille's solution of the geocentric problem, choosing signs so that no
    /// step cancels.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard q != 0 || r > 0 else { return 0 }
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    /// α1 normalized, or due east when the estimate is not in (0, π) (a NaN estimate passes through).
    private static func sanitized(_ alpha1: SineSeries.Angle) -> SineSeries.Angle {
        alpha1.sin <= 0 ? (1, 0) : normalized(alpha1.sin, alpha1.cos)
    }
}
