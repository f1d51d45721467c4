import Benchmark
import Foundation
import WaymarkCore

/// The inverse geodesic problem on WGS84 (Karney 2013) per pair of points, with a spherical haversine
/// as the same-run peer: what the ellipsoid costs over the sphere.
///
/// Each iteration walks 1,000 pairs generated when the benchmarks are registered, never inside a
/// measurement; one operation is one pair (figures are per pair, `*`), so `Throughput` is pairs per
/// second.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // `instructions` needs a hardware performance counter (perf_event_open); where the machine has
        // none, as in most VMs, the metric is silently absent.
        metrics: [.wallClock, .instructions, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    let short = Pairs(count: 1_000, maximumMetres: 10_000, seed: 1)
    let long = Pairs(count: 1_000, maximumMetres: nil, seed: 2)

    Benchmark("geodesy.inverse.short") { benchmark in
        for index in benchmark.scaledIterations {
            let pair = short[index]
            blackHole(Geodesic.inverse(from: pair.start, to: pair.end))
        }
    }

    Benchmark("geodesy.distance.short") { benchmark in
        for index in benchmark.scaledIterations {
            let pair = short[index]
            blackHole(Geodesic.distance(from: pair.start, to: pair.end))
        }
    }

    Benchmark("geodesy.inverse.long") { benchmark in
        for index in benchmark.scaledIterations {
            let pair = long[index]
            blackHole(Geodesic.inverse(from: pair.start, to: pair.end))
        }
    }

    // The peer: a great circle on a sphere of the mean radius, no iteration, errors up to 0.5 %.
    Benchmark("geodesy.haversine.short") { benchmark in
        for index in benchmark.scaledIterations {
            let pair = short[index]
            blackHole(haversine(from: pair.start, to: pair.end))
        }
    }
}

/// The great-circle distance on a sphere of radius 6,371,008.8 m (the IUGG mean radius), metres.
@inline(never)
private func haversine(from start: Coordinate, to end: Coordinate) -> Double {
    let radians = Double.pi / 180
    let sinHalfLatitude = sin((end.latitude - start.latitude) * radians / 2)
    let sinHalfLongitude = sin((end.longitude - start.longitude) * radians / 2)
    let h =
        sinHalfLatitude * sinHalfLatitude
        + cos(start.latitude * radians) * cos(end.latitude * radians) * sinHalfLongitude * sinHalfLongitude
    return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
}

/// Pairs of points from a seeded SplitMix64: the first anywhere below 85° of latitude, the second
/// anywhere, or within `maximumMetres` of the first when given.
private struct Pairs: Sendable {
    private let pairs: [(start: Coordinate, end: Coordinate)]

    init(count: Int, maximumMetres: Double?, seed: UInt64) {
        var state = seed
        func uniform(_ range: ClosedRange<Double>) -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + (range.upperBound - range.lowerBound) * Double(z >> 11) / Double(1 << 53)
        }
        pairs = (0..<count).map { _ in
            let start = Coordinate(latitude: uniform(-85...85), longitude: uniform(-180...180))
            guard let metres = maximumMetres else {
                return (start, Coordinate(latitude: uniform(-90...90), longitude: uniform(-180...180)))
            }
            // Within `metres` / √2 north-south and east-west, so at most `metres` apart.
            let degrees = metres / 1.414 / 111_320
            let end = Coordinate(
                latitude: start.latitude + uniform(-degrees...degrees),
                longitude: start.longitude + uniform(-degrees...degrees) / cos(start.latitude * .pi / 180)
            )
            return (start, end)
        }
    }

    subscript(index: Int) -> (start: Coordinate, end: Coordinate) { pairs[index] }
}
