/// A spherical-harmonic model of the earth's main magnetic field and its secular variation, such as the
/// World Magnetic Model: what a compass points at, anywhere and at any time the model covers.
///
/// ``wmm2025`` is the World Magnetic Model 2025 of NOAA NCEI and the British Geological Survey, built from
/// the official coefficient file (`WMM2025.COF`, compiled in as text) the first time it is used. It
/// reproduces NOAA's published test values to the precision they are printed (`MagneticModelTests`).
///
/// A model is an immutable value, safe to share between threads. ``field(at:altitudeHAE:year:)`` computes
/// on the caller's thread without allocating, in about 0.65 µs (Benchmarks/README.md).
public struct MagneticModel: Sendable {
    /// The model's name as its coefficient file gives it: `WMM-2025`.
    public let name: String
    /// The decimal year the coefficients refer to: 2025.0.
    public let epoch: Double
    /// The release date as its coefficient file gives it: `11/13/2024`.
    public let releaseDate: String
    /// The highest degree (and order) of the expansion: 12 for the WMM.
    public let maximumDegree: Int

    /// The coefficients in the order the synthesis visits them: order m = 0 ... N, and within each order
    /// degree n = max(1, m) ... N. Each is scaled by the Schmidt semi-normalisation factor, so that the
    /// synthesis can run the Gauss-normalised recursion of NOAA's `MAG_PcupLow` unscaled.
    let terms: [Term]

    /// One term of the expansion, ready for the synthesis.
    struct Term {
        /// g, h (nT) and their rates (nT/yr), each times the Schmidt factor of (n, m).
        var g: Double
        var h: Double
        var gRate: Double
        var hRate: Double
        /// n + 1: the factor of the radial derivative.
        var radial: Double
        /// K(n, m) = ((n-1)² - m²) / ((2n-1)(2n-3)) of the recursion P(n,m) = x P(n-1,m) - K P(n-2,m).
        var recursion: Double
    }

    /// The World Magnetic Model 2025, valid from 2025.0 to 2030.0: parsed from the embedded text of the
    /// official `WMM2025.COF` the first time it is used (about 0.3 ms, thread-safe), then shared.
    public static let wmm2025: MagneticModel = {
        do {
            return try MagneticModel(cof: wmm2025COF)
        } catch {
            // The text is compiled in and checked by the tests: failing here is a broken build.
            preconditionFailure("the embedded WMM2025.COF does not parse: \(error)")
        }
    }()

    /// The decimal years the model is valid for: five years from its ``epoch``, 2025.0 ..< 2030.0 for
    /// WMM2025. ``field(at:altitudeHAE:year:)`` answers outside them too, and says so.
    public var validYears: Range<Double> { epoch..<(epoch + 5) }

    /// The heights above the WGS84 ellipsoid the WMM is specified for, metres: -1 km to 850 km.
    public static let validAltitudes: ClosedRange<Double> = -1_000...850_000

    /// The heights above the WGS84 ellipsoid ``field(at:altitudeHAE:year:)`` computes a field for, metres:
    /// from 1,000 km below the surface to a million kilometres above it. Everything in that range gives
    /// finite values; outside ``validAltitudes`` they are extrapolations.
    public static let computableAltitudes: ClosedRange<Double> = -1_000_000...1_000_000_000

    /// The decimal years ``field(at:altitudeHAE:year:)`` computes a field for: 1000 years either side of the
    /// ``epoch``. Outside ``validYears`` the secular variation is extrapolated linearly, which is meaningless
    /// long before these limits; they only keep every value finite.
    public var computableYears: ClosedRange<Double> { (epoch - 1_000)...(epoch + 1_000) }

    /// Builds a model from the lines of a coefficient file, in the file's order (n = 1 ... N, m = 0 ... n).
    init(name: String, epoch: Double, releaseDate: String, coefficients: [Coefficient]) {
        let maximumDegree = coefficients.last?.n ?? 0
        var terms: [Term] = []
        terms.reserveCapacity(coefficients.count)
        let schmidt = Self.schmidtFactors(maximumDegree: maximumDegree)
        for m in 0...maximumDegree {
            for n in max(1, m)...maximumDegree {
                // Degree n starts at line (n-1)(n+2)/2 of the coefficients.
                let coefficient = coefficients[(n - 1) * (n + 2) / 2 + m]
                let factor = schmidt[n * (n + 1) / 2 + m]
                let recursion = n < 2 ? 0 : Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                terms.append(
                    Term(
                        g: coefficient.g * factor,
                        h: coefficient.h * factor,
                        gRate: coefficient.gRate * factor,
                        hRate: coefficient.hRate * factor,
                        radial: Double(n + 1),
                        recursion: recursion
                    )
                )
            }
        }
        self.name = name
        self.epoch = epoch
        self.releaseDate = releaseDate
        self.maximumDegree = maximumDegree
        self.terms = terms
    }

    /// The ratios of the Schmidt semi-normalised to the Gauss-normalised associated Legendre functions,
    /// indexed n(n+1)/2 + m, by the recursion of NOAA's `MAG_PcupLow`.
    private static func schmidtFactors(maximumDegree: Int) -> [Double] {
        var factors = [Double](repeating: 1, count: (maximumDegree + 1) * (maximumDegree + 2) / 2)
        guard maximumDegree >= 1 else { return factors }
        for n in 1...maximumDegree {
            let first = n * (n + 1) / 2
            factors[first] = factors[(n - 1) * n / 2] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let ratio = Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)
                factors[first + m] = factors[first + m - 1] * ratio.squareRoot()
            }
        }
        return factors
    }
}
