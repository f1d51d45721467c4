extension InverseProblem {
    /// Tolerances and limits of the inverse solution, as chosen in GeographicLib for double precision.
    enum Tolerance {
        /// The machine epsilon, 2⁻⁵².
        static let epsilon = Double.ulpOfOne
        /// √ε.
        static let sqrtEpsilon = epsilon.squareRoot()
        /// 200 ε: how far below the cut of the astroid a start is still taken on the cut.
        static let astroidCut = 200 * epsilon
        /// 1000 √ε: how far beyond x = -1 the astroid's cut extends.
        static let astroidThreshold = 1000 * sqrtEpsilon
        /// √(smallest normal): the positive stand-in for 0 that still squares without underflow.
        static let tiny = Double.leastNormalMagnitude.squareRoot()
        /// σ12 below which a short line is solved directly on a sphere (about 0.2 m on the earth).
        static let shortLineSigma =
            0.1 * sqrtEpsilon
            / (max(0.001, abs(WGS84.flattening)) * min(1, 1 - WGS84.flattening / 2) / 2).squareRoot()
        /// Newton steps before falling back to bisection only.
        static let newtonIterations = 20
        /// All iterations, Newton and bisection.
        static let maximumIterations = newtonIterations + Double.significandBitCount + 1 + 10
    }
}
