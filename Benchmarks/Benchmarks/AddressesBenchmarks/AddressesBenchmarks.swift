import Benchmark
import Foundation
import WaymarkCore
import WaymarkStore

/// The nearest address and street in an address file, one lookup per iteration (so p50 and p99 are those of
/// single lookups), and opening the mapped file.
///
/// The file is `WAYMARK_ADDRESSES`, or `../.build/addresses/synthetic-5m.bin` as `scripts/measure-addresses.sh`
/// builds it (5 million synthetic addresses: scripts/make-synthetic-extract.py). The points are 10,000 seeded
/// ones made when the benchmarks are registered: half within 60 m of random addresses, half uniform in the box
/// of the addresses.
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
        ProcessInfo.processInfo.environment["WAYMARK_ADDRESSES"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../.build/addresses/synthetic-5m.bin"
        ).standardized.path
    let index: AddressIndex
    do {
        index = try AddressIndex.open(path: path)
    } catch {
        fatalError("\(error): build it first with scripts/measure-addresses.sh")
    }
    let points = samplePoints(index, count: 10_000)

    Benchmark("addresses.nearest") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(index.nearestAddress(to: points[iteration % points.count], within: 50))
        }
    }

    Benchmark("addresses.street") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(index.nearestStreet(to: points[iteration % points.count], within: 100))
        }
    }

    // What `waymark geo place` and an event do without a gazetteer: the address, else the street, and strings.
    let finder = PlaceFinder(gazetteer: nil, addresses: index)
    Benchmark("addresses.lookup") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(finder.lookup(points[iteration % points.count]))
        }
    }

    // Opening: open, mmap, the checksum of every byte, the structure check, munmap.
    Benchmark("addresses.open", configuration: .init(warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 20))
    {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try AddressIndex.open(path: path).addressCount)
        }
    }
}

private func samplePoints(_ index: AddressIndex, count: Int) -> [Coordinate] {
    var seed: UInt64 = 42
    func next() -> Double {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    var box = (south: 90.0, north: -90.0, west: 180.0, east: -180.0)
    for sample in 0..<1000 {
        let coordinate = index.coordinate(at: sample * index.addressCount / 1000)
        box.south = min(box.south, coordinate.latitude)
        box.north = max(box.north, coordinate.latitude)
        box.west = min(box.west, coordinate.longitude)
        box.east = max(box.east, coordinate.longitude)
    }
    var points: [Coordinate] = []
    for point in 0..<count {
        if point % 2 == 0 {
            points.append(
                Coordinate(
                    latitude: box.south + next() * (box.north - box.south),
                    longitude: box.west + next() * (box.east - box.west)
                )
            )
        } else {
            let address = index.coordinate(at: Int(next() * Double(index.addressCount)))
            points.append(
                Coordinate(
                    latitude: address.latitude + (next() - 0.5) * 120 / 111_000,
                    longitude: address.longitude + (next() - 0.5) * 120 / 72_000
                )
            )
        }
    }
    return points
}
