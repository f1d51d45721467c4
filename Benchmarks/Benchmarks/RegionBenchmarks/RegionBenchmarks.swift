import Benchmark
import Foundation
import WaymarkCore

/// Region monitoring's geometry at issue 5's scale: 100,000 circles and 10,000 polygons over Germany,
/// checked along a drive across it.
///
/// The regions, the drives and the indexes come from a seeded SplitMix64 and are built before a
/// benchmark's first measurement, never inside one; they are lazy globals, so that each benchmark's
/// process (the tool runs one per benchmark) builds only what it uses and its resident peak says what
/// that costs. `regions.check` is the work of the region monitor per fix: the index's candidates within
/// the cushion (20 m) and the signed distance of each; one operation is one fix, so the wall clock
/// percentiles are per fix. The same-run peer `regions.check.peer-scan` does the same without the index,
/// with a latitude-longitude box test over every region. `regions.load` prepares the 110,000 regions
/// (validation, the polygons' projection) and builds the index, from the `Region`s a region file gives;
/// the memory benchmarks report what their result holds.
let benchmarks: @Sendable () -> Void = {
    check("regions.check", drive, regions: 110_000) { indexes.standard }
    // The same with cells of 0.1° and 0.025° (the default is 0.05°).
    check("regions.check.cells-10", drive, regions: 110_000) { indexes.coarse }
    check("regions.check.cells-40", drive, regions: 110_000) { indexes.fine }
    check("regions.check.city", cityDrive, regions: 100_000) { cityIndexes.standard }
    check("regions.check.city.cells-50", cityDrive, regions: 100_000) { cityIndexes.fine }

    // The peer: every region's box of latitude and longitude (its center ± its size and the cushion, as
    // the index's caps), then the signed distance of those whose box holds the fix.
    Benchmark(
        "regions.check.peer-scan",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .candidates],
            tags: ["regions": "110000"],
            timeUnits: .microseconds,
            units: [.mallocCountTotal: .count],
            warmupIterations: 5,
            maxDuration: .seconds(5),
            maxIterations: 500
        )
    ) { benchmark in
        let boxes = peerBoxes
        let regions = prepared
        let fix = drive[benchmark.currentIteration]
        benchmark.startMeasurement()
        var inside = 0
        var listed = 0
        for (box, region) in zip(boxes, regions) where box.holds(fix, margin: cushion) {
            listed += 1
            if region.signedDistance(to: fix) <= 0 { inside += 1 }
        }
        benchmark.stopMeasurement()
        blackHole(inside)
        benchmark.measurement(.candidates, listed)
    }

    // Memory: `memoryLeakedBytes` is what the operation allocated and had not freed when the measurement
    // stopped, with the result still alive: the bytes it holds (as requested from malloc).
    let memory = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .memoryLeakedBytes, .peakMemoryResident],
        tags: ["regions": "110000"],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count, .memoryLeakedBytes: .mega, .peakMemoryResident: .mega],
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 10
    )

    Benchmark("regions.load", configuration: memory) { benchmark in
        let regions = germany.regions
        benchmark.startMeasurement()
        let loaded = RegionIndex(
            regions.lazy.map { region in
                do { return try PreparedRegion(region) } catch { fatalError("\(region.id): \(error)") }
            }
        )
        benchmark.stopMeasurement()
        blackHole(loaded)
    }

    // The agent's whole load of a region file: parse the GeoJSON (written here, once, by the encoder the
    // `waymark regions` commands use), check every feature, prepare the regions within the limits and
    // build the index.
    let fileBytes = RegionFile.encode(germany.regions)
    Benchmark("regions.file.load", configuration: memory) { benchmark in
        let bytes = fileBytes
        benchmark.startMeasurement()
        let file = RegionFile(parsing: bytes, fileName: "regions.geojson")
        guard let regions = try? file.checkedRegions() else { fatalError("the generated file has problems") }
        let limits = RegionLimits(maxRegions: 110_000, maxVertices: 1_000)
        let (index, refusals) = RegionIndex.monitoring(regions, within: limits)
        benchmark.stopMeasurement()
        precondition(refusals.isEmpty, "\(refusals.first.map { "\($0.id): \($0.reason)" } ?? "")")
        blackHole(index)
    }

    for cellsPerDegree in [10, 20, 40] {
        let suffix = cellsPerDegree == RegionIndex.defaultCellsPerDegree ? "" : ".cells-\(cellsPerDegree)"
        Benchmark("regions.index.build" + suffix, configuration: memory) { benchmark in
            let regions = prepared
            benchmark.startMeasurement()
            let built = RegionIndex(regions, cellsPerDegree: cellsPerDegree)
            benchmark.stopMeasurement()
            blackHole(built)
        }
    }

    // The same regions inserted one at a time, as a caller that checks limits region by region does.
    Benchmark("regions.index.insert", configuration: memory) { benchmark in
        let regions = prepared
        benchmark.startMeasurement()
        var built = RegionIndex()
        for region in regions { built.insert(region) }
        benchmark.stopMeasurement()
        blackHole(built)
    }

    // What the `Region`s themselves hold: the input of `regions.load`, as a region file gives it.
    Benchmark("regions.generate", configuration: memory) { benchmark in
        let generated = RandomRegions(circles: 100_000, polygons: 10_000, seed: 2_026)
        benchmark.stopMeasurement()
        blackHole(generated)
    }
}

/// The region monitor's cushion, metres.
private let cushion = 20.0

/// Issue 5's regions over Germany, as a region file gives them, and prepared.
private let germany = RandomRegions(circles: 100_000, polygons: 10_000, seed: 2_026)
private let prepared = germany.prepared()
/// 20,000 fixes across Germany.
private let drive = Drive(fixes: 20_000, seed: 7)
/// Indexes of `prepared` with cells of 0.05° (the default), 0.1° and 0.025°.
private let indexes = (
    standard: RegionIndex(prepared),
    coarse: RegionIndex(prepared, cellsPerDegree: 10),
    fine: RegionIndex(prepared, cellsPerDegree: 40)
)
/// The peer's boxes of `prepared`.
private let peerBoxes = prepared.map(Box.init)

/// A dense city: 100,000 circles of 50 to 500 m within 15 km of Berlin's center, crossed by a drive with
/// fixes 15 m apart; a cell of 0.05° lists about 2,400 of them, one of 0.02° about 500.
private let city = RandomRegions(
    circles: 100_000,
    polygons: 0,
    seed: 2_027,
    latitudes: 52.38...52.65,
    longitudes: 13.15...13.65,
    radii: 50...500
)
.prepared()
private let cityDrive = Drive(fixes: 2_000, seed: 8, from: (52.40, 13.17), to: (52.63, 13.63), fixSpacing: 15)
private let cityIndexes = (standard: RegionIndex(city), fine: RegionIndex(city, cellsPerDegree: 50))

/// Registers a benchmark of the work per fix: the candidates within the cushion and the signed distance of
/// each, for the fixes of `drive` one per operation.
private func check(
    _ name: String,
    _ drive: @autoclosure @escaping @Sendable () -> Drive,
    regions: Int,
    index: @escaping @Sendable () -> RegionIndex
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .candidates],
            tags: ["regions": "\(regions)"],
            timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count],
            warmupIterations: 1_000,
            maxDuration: .seconds(10),
            maxIterations: 20_000
        )
    ) { benchmark in
        let index = index()
        var candidates: [Int32] = []
        candidates.reserveCapacity(1_024)
        let fix = drive()[benchmark.currentIteration]
        benchmark.startMeasurement()
        index.candidates(near: fix, within: cushion, into: &candidates)
        var inside = 0
        for slot in candidates where index.signedDistance(ofRegionAt: slot, to: fix) <= 0 { inside += 1 }
        benchmark.stopMeasurement()
        blackHole(inside)
        benchmark.measurement(.candidates, candidates.count)
    }
}

extension BenchmarkMetric {
    /// Candidates the index (or the peer's boxes) listed for the operation's fix.
    fileprivate static var candidates: BenchmarkMetric {
        .custom("candidates", polarity: .prefersSmaller, useScalingFactor: false)
    }
}

/// A seeded SplitMix64 (Steele, Lea and Flood).
private struct SplitMix64 {
    var state: UInt64

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return range.lowerBound + (range.upperBound - range.lowerBound) * Double(z >> 11) / Double(1 << 53)
    }
}

/// Regions at uniformly random places within `latitudes` and `longitudes` (by default 47° to 55° N, 6° to
/// 15° E: Germany): circles with radii in `radii` (by default 50 m to 5 km), then star-shaped polygons of
/// 20 to 200 vertices reaching 1 to 10 km from their centers (up to 20 km across; vertices placed on the
/// local tangent plane).
private struct RandomRegions: Sendable {
    let regions: [Region]

    init(
        circles: Int,
        polygons: Int,
        seed: UInt64,
        latitudes: ClosedRange<Double> = 47...55,
        longitudes: ClosedRange<Double> = 6...15,
        radii: ClosedRange<Double> = 50...5_000
    ) {
        var random = SplitMix64(state: seed)
        var regions: [Region] = []
        regions.reserveCapacity(circles + polygons)
        for index in 0..<(circles + polygons) {
            let center = Coordinate(latitude: random.uniform(latitudes), longitude: random.uniform(longitudes))
            let shape: RegionShape
            if index < circles {
                shape = .circle(center: center, radius: random.uniform(radii))
            } else {
                let count = Int(random.uniform(20...200.999))
                let reach = random.uniform(1_000...10_000)
                var ring: [Coordinate] = []
                ring.reserveCapacity(count + 1)
                for vertex in 0..<count {
                    let azimuth = (Double(vertex) + random.uniform(0...0.9)) / Double(count) * 2 * .pi
                    let distance = reach * random.uniform(0.3...1)
                    ring.append(
                        Coordinate(
                            latitude: center.latitude + distance * cos(azimuth) / 111_320,
                            longitude: center.longitude + distance * sin(azimuth)
                                / (111_320 * cos(center.latitude * .pi / 180))
                        )
                    )
                }
                ring.append(ring[0])
                shape = .polygons([[ring]])
            }
            regions.append(Region(id: "region-\(index)", shape: shape))
        }
        self.regions = regions
    }

    /// The regions prepared; a region that does not prepare stops the benchmark.
    func prepared() -> [PreparedRegion] {
        regions.map { region in
            do { return try PreparedRegion(region) } catch { fatalError("\(region.id): \(error)") }
        }
    }
}

/// Fixes `fixSpacing` metres apart along a zigzag: the straight line from `start` to `end` swinging 5 km
/// either side of it every 20 km, jittered by a few metres. By default 25 m apart (90 km/h at 1 Hz) from
/// (47.6° N, 6.6° E) to (54.4° N, 14.4° E), across Germany from the south-west to the north-east.
private struct Drive: Sendable {
    let fixes: [Coordinate]

    init(
        fixes count: Int,
        seed: UInt64,
        from start: (latitude: Double, longitude: Double) = (47.6, 6.6),
        to end: (latitude: Double, longitude: Double) = (54.4, 14.4),
        fixSpacing: Double = 25
    ) {
        var random = SplitMix64(state: seed)
        let middle = (start.latitude + end.latitude) / 2 * Double.pi / 180
        let north = (end.latitude - start.latitude) * 111_320
        let east = (end.longitude - start.longitude) * 111_320 * cos(middle)
        let length = (north * north + east * east).squareRoot()
        fixes = (0..<count).map { index in
            let along = Double(index) * fixSpacing
            let across = 5_000 * sin(along / 20_000 * 2 * .pi) + random.uniform(-3...3)
            let fraction = along / length
            let latitude =
                start.latitude + fraction * (end.latitude - start.latitude) + across * east / length / 111_320
            let longitude =
                start.longitude + fraction * (end.longitude - start.longitude)
                - across * north / length / (111_320 * cos(latitude * .pi / 180))
            return Coordinate(latitude: latitude, longitude: longitude)
        }
    }

    /// The fix of an operation: one after the other, wrapping around.
    subscript(iteration: Int) -> Coordinate { fixes[iteration % fixes.count] }
}

/// A region's box of latitude and longitude: its center ± its size (no region here is near a pole or the
/// antimeridian), the peer's only filter.
private struct Box: Sendable {
    let south: Double
    let north: Double
    let west: Double
    let east: Double
    let reach: Double
    let cosine: Double

    init(_ region: PreparedRegion) {
        reach = region.size * 1.01 + 1
        cosine = cos(region.center.latitude * .pi / 180)
        south = region.center.latitude - reach / 110_000
        north = region.center.latitude + reach / 110_000
        west = region.center.longitude - reach / (110_000 * cosine)
        east = region.center.longitude + reach / (110_000 * cosine)
    }

    func holds(_ point: Coordinate, margin: Double) -> Bool {
        let latitudeMargin = margin / 110_000
        let longitudeMargin = margin / (110_000 * cosine)
        return point.latitude >= south - latitudeMargin && point.latitude <= north + latitudeMargin
            && point.longitude >= west - longitudeMargin && point.longitude <= east + longitudeMargin
    }
}
