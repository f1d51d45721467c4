import Benchmark
import Foundation
import WaymarkCore
import WaymarkGPSD

/// The location filter's throughput, in fixes per second, with each kind of trigger; the heading filter's
/// and the activity machine's, per fix.
///
/// One operation runs a fresh `LocationFilter` over `Drive.fixes`: the Regensburg drive's 774 fixes,
/// repeated 100 times one after the other (each copy later in GPS time), each arriving 0.2 s after its
/// GPS time. The fixes are built when the benchmarks are registered, never inside a measurement.
///
/// The peer, `location.filter.peer-haversine`, is the naive distance filter many trackers use: the same
/// loop delivering on a spherical haversine distance of 100 m, with no freshness or accuracy checks.
let benchmarks: @Sendable () -> Void = {
    let drive = Drive.regensburg
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .fixesPerSecond],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 3,
        maxDuration: .seconds(4),
        maxIterations: 1_000
    )
    let tags = ["fixes_per_op": "\(drive.fixes.count)"]
    let settings: [(name: String, settings: LocationSettings)] = [
        ("every-fix", LocationSettings()),
        ("distance-100", LocationSettings(distanceFilter: 100)),
        (
            "fleet",
            LocationSettings(
                distanceFilter: 100,
                minInterval: .seconds(30),
                heartbeat: .seconds(120),
                angleFilter: 30,
                speedDelta: 5
            )
        ),
        ("significant-change", LocationSettings(mode: .significantChange)),
    ]
    for (name, settings) in settings {
        Benchmark("location.filter.\(name)", configuration: .init(tags: tags)) { benchmark in
            let start = ContinuousClock.now
            var filter = LocationFilter(settings: settings)
            var delivered = 0
            for fix in drive.fixes {
                let verdict = filter.consider(
                    fix.location,
                    arrival: fix.arrival,
                    wallClock: fix.location.time,
                    wallClockSynchronized: false
                )
                if case .deliver = verdict { delivered += 1 }
            }
            blackHole(delivered)
            benchmark.measurement(.fixesPerSecond, drive.fixesPerSecond(since: start))
        }
    }

    // Headings from the drive's measured courses: the declination from the cache, the heading filter of 1°.
    // The moving fixes give a course reading each, the others mark the heading invalid at most once.
    Benchmark("heading.update.course", configuration: .init(tags: tags)) { benchmark in
        let start = ContinuousClock.now
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true, source: .course))
        var delivered = 0
        for fix in drive.fixes where filter.location(fix.location, arrival: fix.arrival).heading != nil {
            delivered += 1
        }
        blackHole(delivered)
        benchmark.measurement(.fixesPerSecond, drive.fixesPerSecond(since: start))
    }

    // The activity machine over the drive at its defaults, and with pause_after = 30s (two pauses and
    // resumes, three trips per copy of the drive): its cost per fix next to the location filter's.
    for (name, pauseAfter) in [("defaults", Duration.seconds(300)), ("pause-30s", .seconds(30))] {
        Benchmark("activity.observe.\(name)", configuration: .init(tags: tags)) { benchmark in
            let start = ContinuousClock.now
            var settings = ActivitySettings()
            settings.pauseAfter = pauseAfter
            var monitor = ActivityMonitor(settings: settings)
            var events = 0
            for fix in drive.fixes { events += monitor.observe(fix.location, arrival: fix.arrival).count }
            blackHole(events)
            benchmark.measurement(.fixesPerSecond, drive.fixesPerSecond(since: start))
        }
    }

    Benchmark("location.filter.peer-haversine", configuration: .init(tags: tags)) { benchmark in
        let start = ContinuousClock.now
        var last: Location?
        var delivered = 0
        for fix in drive.fixes {
            if let previous = last, haversine(previous, fix.location) < 100 { continue }
            last = fix.location
            delivered += 1
        }
        blackHole(delivered)
        benchmark.measurement(.fixesPerSecond, drive.fixesPerSecond(since: start))
    }
}

/// Distance on a sphere of the WGS84 mean radius: what naive trackers compute (errs by up to 0.55 %).
@inline(never)
func haversine(_ first: Location, _ second: Location) -> Double {
    let radians = Double.pi / 180
    let deltaLatitude = (second.latitude - first.latitude) * radians
    let deltaLongitude = (second.longitude - first.longitude) * radians
    let a =
        sin(deltaLatitude / 2) * sin(deltaLatitude / 2) + cos(first.latitude * radians)
        * cos(second.latitude * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
    return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
}

extension BenchmarkMetric {
    /// Fixes considered per second of wall clock, one sample per operation.
    fileprivate static var fixesPerSecond: BenchmarkMetric {
        .custom("fixes per second", polarity: .prefersLarger, useScalingFactor: false)
    }
}

/// The fixes of the Regensburg drive as a long live stream.
private struct Drive: Sendable {
    struct Fix: Sendable {
        var location: Location
        var arrival: MonotonicInstant
    }

    static let regensburg = Drive(fixture: "20100411_Geko_Regensburg.log.chk", copies: 100)

    let fixes: [Fix]

    func fixesPerSecond(since start: ContinuousClock.Instant) -> Int {
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return Int((Double(fixes.count) / elapsed).rounded())
    }

    init(fixture name: String, copies: Int) {
        // Benchmarks/Benchmarks/LocationBenchmarks/LocationBenchmarks.swift → the repository root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/Fixtures/gpsd-logs/\(name)").path
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("cannot read the capture \(path)")
        }
        let replay = CaptureReplay(bytes: [UInt8](data))
        var drive: [Location] = []
        while let update = replay.next() {
            if case .location(let location) = update.event { drive.append(location) }
        }
        guard let first = drive.first, let last = drive.last else { fatalError("the capture \(path) has no fix") }
        let length = last.time.duration(since: first.time) + .seconds(1)
        var fixes: [Fix] = []
        fixes.reserveCapacity(drive.count * copies)
        for copy in 0..<copies {
            for var location in drive {
                location.time = location.time.advanced(by: length * copy)
                let arrival = location.time.advanced(by: .milliseconds(200)).duration(since: first.time)
                fixes.append(Fix(location: location, arrival: MonotonicInstant(nanoseconds: arrival.nanoseconds)))
            }
        }
        self.fixes = fixes
    }
}
