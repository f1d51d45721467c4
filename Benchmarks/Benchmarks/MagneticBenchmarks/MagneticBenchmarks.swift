import Benchmark
import Foundation
import WaymarkCore
import WaymarkGPSD

/// The World Magnetic Model 2025: one full synthesis, and the declination cache the heading pipeline
/// looks up once per fix, with two same-run peers: the geodesic distance between consecutive fixes (what
/// the location filter computes per fix) and a plain `atan2` (the floor of any lookup that ends in an
/// angle).
///
/// Each iteration walks 1,000 inputs prepared when the benchmarks are registered, never inside a
/// measurement; one operation is one input (figures are per input, `*`), so `Throughput` is per second.
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
    let model = MagneticModel.wmm2025
    let points = Points(count: 1_000, seed: 3)
    let drive = Drive.regensburg
    // Parse the coefficients before any measurement.
    blackHole(model.field(at: Coordinate(latitude: 0, longitude: 0), altitudeHAE: 0, year: 2026))

    Benchmark("magnetic.synthesis") { benchmark in
        for index in benchmark.scaledIterations {
            let point = points[index % points.count]
            blackHole(model.field(at: point.coordinate, altitudeHAE: point.altitude, year: point.year))
        }
    }

    // A fresh cache per measurement: its first lookup evaluates the model (four syntheses); the drive never
    // leaves that cell, height band or day, so every other lookup interpolates.
    Benchmark("magnetic.cache.lookup") { benchmark in
        var cache = DeclinationCache(model: model)
        for index in benchmark.scaledIterations {
            let fix = drive.fixes[index % drive.fixes.count]
            blackHole(cache.declination(at: fix.coordinate, altitudeHAE: fix.altitudeHAE, time: fix.time))
        }
        blackHole(cache.refreshes)
    }

    // What the first use of `MagneticModel.wmm2025` costs, once per process: parsing the coefficient text.
    let coefficients = String(
        decoding: Drive.repositoryFile("Sources/WaymarkCore/Magnetism/WMM2025.COF"),
        as: UTF8.self
    )
    Benchmark("magnetic.model.parse", configuration: .init(timeUnits: .microseconds, scalingFactor: .one)) { _ in
        blackHole(try MagneticModel(cof: coefficients))
    }

    Benchmark("magnetic.peer.geodesic-distance") { benchmark in
        for index in benchmark.scaledIterations {
            let fix = drive.fixes[index % drive.fixes.count]
            let next = drive.fixes[(index + 1) % drive.fixes.count]
            blackHole(Geodesic.distance(from: fix.coordinate, to: next.coordinate))
        }
    }

    Benchmark("magnetic.peer.atan2") { benchmark in
        for index in benchmark.scaledIterations {
            let fix = drive.fixes[index % drive.fixes.count]
            blackHole(atan2(fix.coordinate.latitude, fix.coordinate.longitude))
        }
    }
}

/// Points anywhere on the earth from a seeded SplitMix64, at heights of 0 to 3 km and times in 2025 ... 2030.
private struct Points: Sendable {
    struct Point: Sendable {
        var coordinate: Coordinate
        var altitude: Double
        var year: Double
    }

    private let points: [Point]

    var count: Int { points.count }

    init(count: Int, seed: UInt64) {
        var state = seed
        func uniform(_ range: ClosedRange<Double>) -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + (range.upperBound - range.lowerBound) * Double(z >> 11) / Double(1 << 53)
        }
        points = (0..<count).map { _ in
            Point(
                coordinate: Coordinate(latitude: uniform(-89...89), longitude: uniform(-180...180)),
                altitude: uniform(0...3_000),
                year: uniform(2025...2029.99)
            )
        }
    }

    subscript(index: Int) -> Point { points[index] }
}

/// The fixes of the Regensburg drive (`Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log.chk`: 774
/// fixes of a car over 26 minutes), decoded once by the replay path.
private struct Drive: Sendable {
    struct Fix: Sendable {
        var coordinate: Coordinate
        var altitudeHAE: Double?
        var time: Timestamp
    }

    static let regensburg = Drive(fixture: "20100411_Geko_Regensburg.log.chk")

    let fixes: [Fix]

    /// The bytes of a file of the repository.
    static func repositoryFile(_ relativePath: String) -> [UInt8] {
        // Benchmarks/Benchmarks/MagneticBenchmarks/MagneticBenchmarks.swift → the repository root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(relativePath).path
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        return [UInt8](data)
    }

    init(fixture name: String) {
        let path = "Tests/Fixtures/gpsd-logs/\(name)"
        let replay = CaptureReplay(bytes: Self.repositoryFile(path))
        var fixes: [Fix] = []
        while let update = replay.next() {
            if case .location(let location) = update.event {
                fixes.append(
                    Fix(coordinate: location.coordinate, altitudeHAE: location.altitudeHAE, time: location.time)
                )
            }
        }
        guard !fixes.isEmpty else { fatalError("the capture \(path) has no fix") }
        self.fixes = fixes
    }
}
