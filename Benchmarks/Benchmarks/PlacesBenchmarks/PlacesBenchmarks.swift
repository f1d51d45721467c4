import Benchmark
import Foundation
import WaymarkCore
import WaymarkStore

/// The nearest populated place, one lookup per iteration (so p50 and p99 are those of single lookups), with
/// the brute force over every place as the same-run peer; and opening the mapped gazetteer.
///
/// The gazetteer is the file `scripts/build-places.sh` builds, `WAYMARK_PLACES` or `../.build/places/places.bin`.
/// The points are 10,000 seeded ones, generated when the benchmarks are registered: half uniform on the sphere,
/// half within 50 km of random places, as the acceptance test's.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 100,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 200_000
    )
    let path =
        ProcessInfo.processInfo.environment["WAYMARK_PLACES"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../.build/places/places.bin"
        ).standardized.path
    let gazetteer: Gazetteer
    do {
        gazetteer = try Gazetteer.open(path: path)
    } catch {
        fatalError("\(error): build it first with scripts/build-places.sh \(path)")
    }
    let points = samplePoints(gazetteer, count: 10_000)
    let bruteForce = BruteForce(gazetteer)

    Benchmark("places.nearest") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(gazetteer.nearest(to: points[index % points.count]))
        }
    }

    // What `waymark geo place` and an event do: the search, the entry's strings and the bearing.
    let finder = PlaceFinder(gazetteer: gazetteer)
    Benchmark("places.lookup") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(finder.lookup(points[index % points.count]))
        }
    }

    Benchmark("places.brute-force", configuration: .init(maxDuration: .seconds(5), maxIterations: 5_000)) {
        benchmark in
        for index in benchmark.scaledIterations {
            blackHole(bruteForce.nearest(to: points[index % points.count]))
        }
    }

    // Opening: open, mmap, the checksum of every byte, the structure check, munmap.
    Benchmark("places.open", configuration: .init(warmupIterations: 3, maxDuration: .seconds(5), maxIterations: 500)) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Gazetteer.open(path: path).count)
        }
    }
}

/// Every place's chord, then the geodesic of each place whose chord could beat the best: exhaustive.
private struct BruteForce {
    let gazetteer: Gazetteer
    let coordinates: [Coordinate]
    let xs: [Double]
    let ys: [Double]
    let zs: [Double]

    init(_ gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        coordinates = (0..<gazetteer.count).map { gazetteer.entry(at: $0).coordinate }
        let positions = coordinates.map(position)
        xs = positions.map(\.0)
        ys = positions.map(\.1)
        zs = positions.map(\.2)
    }

    func nearest(to point: Coordinate) -> (Int, Double) {
        let (qx, qy, qz) = position(point)
        var minimum = Double.infinity
        var nearestByChord = 0
        for index in 0..<xs.count {
            let dx = xs[index] - qx
            let dy = ys[index] - qy
            let dz = zs[index] - qz
            let squared = dx * dx + dy * dy + dz * dz
            if squared < minimum {
                minimum = squared
                nearestByChord = index
            }
        }
        var best = Geodesic.distance(from: coordinates[nearestByChord], to: point)
        var bestIndex = nearestByChord
        let reach = (best + 1e-6) * (best + 1e-6)
        for index in 0..<xs.count where index != nearestByChord {
            let dx = xs[index] - qx
            let dy = ys[index] - qy
            let dz = zs[index] - qz
            guard dx * dx + dy * dy + dz * dz <= reach else { continue }
            let distance = Geodesic.distance(from: coordinates[index], to: point)
            if distance < best {
                best = distance
                bestIndex = index
            }
        }
        return (bestIndex, best)
    }
}

private func position(_ coordinate: Coordinate) -> (Double, Double, Double) {
    let a = 6_378_137.0
    let f = 1 / 298.257_223_563
    let e2 = f * (2 - f)
    let latitude = coordinate.latitude * .pi / 180
    let longitude = coordinate.longitude * .pi / 180
    let n = a / (1 - e2 * sin(latitude) * sin(latitude)).squareRoot()
    return (n * cos(latitude) * cos(longitude), n * cos(latitude) * sin(longitude), n * (1 - e2) * sin(latitude))
}

private func samplePoints(_ gazetteer: Gazetteer, count: Int) -> [Coordinate] {
    var seed: UInt64 = 20
    func next() -> Double {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    var points: [Coordinate] = []
    for index in 0..<count {
        if index % 2 == 0 {
            points.append(Coordinate(latitude: asin(next() * 2 - 1) * 180 / .pi, longitude: next() * 360 - 180))
        } else {
            let place = gazetteer.entry(at: Int(next() * Double(gazetteer.count))).coordinate
            let distance = next() * 50_000
            let azimuth = next() * 2 * .pi
            let latitude = min(90, max(-90, place.latitude + distance * cos(azimuth) / 111_000))
            let scale = max(0.01, cos(latitude * .pi / 180))
            points.append(
                Coordinate(latitude: latitude, longitude: place.longitude + distance * sin(azimuth) / (111_000 * scale))
            )
        }
    }
    return points
}
