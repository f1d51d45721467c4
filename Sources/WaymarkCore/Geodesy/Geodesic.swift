/// Geodesics on the WGS84 ellipsoid: the shortest path between two points, after C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55.
///
/// Accurate to about 15 nanometres at every distance, nearly antipodal points included (the bound the
/// paper gives for double precision); agrees with GeographicLib's `Geodesic.WGS84.Inverse` to a few
/// nanometres. About 0.4 µs for a pair under 10 km on one core of a small x86 VM (Benchmarks/README.md).
///
/// Pure computation on the caller's thread: no allocation, no shared state, safe to call concurrently.
///
/// Inputs out of range do not trap: a latitude beyond ±90° or a non-finite coordinate gives a NaN
/// distance (and NaN azimuths), which the caller can test with `isNaN`.
public enum Geodesic {
    /// The shortest path from `start` to `end`: its length and its azimuths at both ends.
    ///
    /// The azimuths are those of GeographicLib: along a meridian they are 0 or ±180; between coincident
    /// points both are 0 or ±180, those of a zero-length meridional geodesic; at a pole, the azimuth is the
    /// limit for a point approaching the pole along the meridian of the longitude given for it. Every
    /// field is NaN when an input is out of range.
    public static func inverse(from start: Coordinate, to end: Coordinate) -> GeodesicInverse {
        guard let problem = InverseProblem(from: start, to: end) else { return .undefined }
        return GeodesicInverse(problem.solve(), of: problem)
    }

    /// The length in metres of the shortest path from `start` to `end`, without the azimuths.
    ///
    /// NaN when a latitude is beyond ±90° or a coordinate is not finite.
    public static func distance(from start: Coordinate, to end: Coordinate) -> Double {
        guard let problem = InverseProblem(from: start, to: end) else { return .nan }
        return 0 + problem.solve().distance
    }
}

extension GeodesicInverse {
    /// The result for the original points from the solution of the canonical problem: the azimuths
    /// swapped back and their signs restored.
    init(_ solution: InverseProblem.Solution, of problem: InverseProblem) {
        var alpha1 = solution.alpha1
        var alpha2 = solution.alpha2
        if problem.swapSign < 0 { swap(&alpha1, &alpha2) }
        let sinSign = problem.swapSign * problem.longitudeSign
        let cosSign = problem.swapSign * problem.latitudeSign
        self.init(
            distance: 0 + solution.distance,
            initialAzimuth: Degrees.atan2(sinSign * alpha1.sin, cosSign * alpha1.cos),
            finalAzimuth: Degrees.atan2(sinSign * alpha2.sin, cosSign * alpha2.cos)
        )
    }
}
