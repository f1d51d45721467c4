/// The series of Karney (2013) in ε = (√(1 + k²) - 1) / (√(1 + k²) + 1), k² = e'² cos² α0, to order 6:
/// the distance integral I1 (eqs. 17 and 18), the reduced-length integral I2 (eqs. 42 and 43) and the
/// longitude integral I3 (eqs. 24 and 25, with WGS84's n).
enum GeodesicSeries {
    /// ε for k² (eq. 16), written to avoid cancellation for small k².
    static func epsilon(kSquared k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }

    /// A1 - 1 (eq. 17): A1 = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 - ε).
    static func a1MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1_l, l = 1 ... 6 (eq. 18).
    static func c1(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (e2 * (6 - e2) - 16) / 32
        d *= eps
        let c2 = d * (e2 * (64 - 9 * e2) - 128) / 2048
        d *= eps
        let c3 = d * (9 * e2 - 16) / 768
        d *= eps
        let c4 = d * (3 * e2 - 5) / 512
        d *= eps
        let c5 = -7 * d / 1280
        d *= eps
        let c6 = -7 * d / 2048
        return SineSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// A2 - 1 (eq. 42): A2 = (1 - ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256).
    static func a2MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (25 * e2 + 36) + 64) / 256
        return t * (1 - eps) - eps
    }

    /// C2_l, l = 1 ... 6 (eq. 43).
    static func c2(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        var d = eps
        let c1 = d * (e2 * (e2 + 2) + 16) / 32
        d *= eps
        let c2 = d * (e2 * (35 * e2 + 64) + 384) / 2048
        d *= eps
        let c3 = d * (15 * e2 + 80) / 768
        d *= eps
        let c4 = d * (7 * e2 + 35) / 512
        d *= eps
        let c5 = 63 * d / 1280
        d *= eps
        let c6 = 77 * d / 2048
        return SineSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// A3 (eq. 24).
    static func a3(_ eps: Double) -> Double {
        1 - eps * (a3k1 + eps * (a3k2 + eps * (a3k3 + eps * (a3k4 + eps * a3k5))))
    }

    /// C3_l, l = 1 ... 5 (eq. 25); the sixth term is 0 at this order.
    static func c3(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        let e3 = e2 * eps
        let e4 = e2 * e2
        let e5 = e4 * eps
        return SineSeries(
            c1: eps * c31k1 + e2 * (c31k2 + eps * (c31k3 + eps * (c31k4 + eps * c31k5))),
            c2: e2 * (c32k2 + eps * (c32k3 + eps * (c32k4 + eps * c32k5))),
            c3: e3 * (c33k3 + eps * (c33k4 + eps * c33k5)),
            c4: e4 * (c34k4 + eps * c34k5),
            c5: e5 * c35k5,
            c6: 0
        )
    }

    // The coefficients of eqs. (24) and (25) for WGS84: a3k<j> multiplies ε^j in A3, c3<l>k<j> multiplies
    // ε^j in C3_l.
    private static let n = WGS84.thirdFlattening
    private static let a3k1 = (1 - n) / 2
    private static let a3k2 = (2 + n - 3 * n * n) / 8
    private static let a3k3 = (1 + 3 * n + n * n) / 16
    private static let a3k4 = (3 + 2 * n) / 64
    private static let a3k5 = 3.0 / 128
    private static let c31k1 = (1 - n) / 4
    private static let c31k2 = (1 - n * n) / 8
    private static let c31k3 = (3 + 3 * n - n * n) / 64
    private static let c31k4 = (5 + 2 * n) / 128
    private static let c31k5 = 3.0 / 128
    private static let c32k2 = (2 - 3 * n + n * n) / 32
    private static let c32k3 = (3 - 2 * n - 3 * n * n) / 64
    private static let c32k4 = (3 + n) / 128
    private static let c32k5 = 5.0 / 256
    private static let c33k3 = (5 - 9 * n + 5 * n * n) / 192
    private static let c33k4 = (9 - 10 * n) / 384
    private static let c33k5 = 7.0 / 512
    private static let c34k4 = (7 - 14 * n) / 512
    private static let c34k5 = 7.0 / 512
    private static let c35k5 = 21.0 / 2560
}
