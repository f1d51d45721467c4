/// The WGS84 ellipsoid: the constants of Karney's algorithms for it, computed once.
enum WGS84 {
    /// a, metres.
    static let equatorialRadius = 6_378_137.0
    /// f.
    static let flattening = 1 / 298.257_223_563
    /// 1 - f.
    static let polarRatio = 1 - flattening
    /// b = a (1 - f), metres.
    static let polarRadius = equatorialRadius * polarRatio
    /// e'² = (a² - b²) / b².
    static let secondEccentricitySquared = flattening * (2 - flattening) / (polarRatio * polarRatio)
    /// n = (a - b) / (a + b), the parameter of the series of eqs. (24) and (25).
    static let thirdFlattening = flattening / (2 - flattening)
}
