import Benchmark
import Foundation
import WaymarkAgent
import WaymarkCore
import WaymarkGPSD

/// Replay throughput, the cost of decoding alone, of encoding alone, and allocations per replay.
///
/// One operation of the `replay.*` benchmarks is one replay of the whole Regensburg capture, whose TPV
/// count is in the benchmark's name (`tpv_per_op`): TPV per second = `tpv_per_op` / median wall clock.
/// The capture is read from disk once, when the benchmarks are registered, never inside a measurement.
let benchmarks: @Sendable () -> Void = {
    let capture = Capture.regensburg
    Benchmark.defaultConfiguration = .init(
        // `instructions` needs a hardware performance counter (perf_event_open); where the machine has
        // none, as in most VMs, the metric is silently absent.
        metrics: [
            .wallClock, .instructions, .throughput, .mallocCountTotal, .mallocBytesCount, .peakMemoryResident,
            .tpvPerSecond,
        ],
        timeUnits: .microseconds,
        units: [.mallocCountTotal: .count, .mallocBytesCount: .kilo, .peakMemoryResident: .mega],
        warmupIterations: 3,
        maxDuration: .seconds(4),
        maxIterations: 1_000
    )
    let tags = ["tpv_per_op": "\(capture.tpvCount)"]
    // One output buffer for all iterations, sized for a whole replay: no benchmark measures its growth.
    var output: [UInt8] = []
    output.reserveCapacity(capture.outputByteCount * 2)

    // The full replay path of `waymark replay FILE --print [--decoder D]`, minus the write(2): decoding and
    // mapping, the pipeline, sequence numbers and JSON Lines encoding into a reused buffer. `replay.capture`
    // decodes with libgps's `gps_unpack`, `replay.capture.builtin` with Waymark's decoder (replay's default).
    for decoder in CaptureDecoder.allCases {
        let name = decoder == .libgps ? "replay.capture" : "replay.capture.\(decoder)"
        Benchmark(name, configuration: .init(tags: tags)) { benchmark in
            let start = ContinuousClock.now
            output.removeAll(keepingCapacity: true)
            let replay = CaptureReplay(bytes: capture.bytes, decoder: decoder)
            var pipeline = EventPipeline()
            var sequencer = EventSequencer()
            let encoder = EventEncoder()
            while let update = replay.next() {
                var events = pipeline.handle(update)
                guard !events.isEmpty else { continue }
                sequencer.number(&events)
                for event in events { encoder.encode(event, into: &output) }
            }
            blackHole(output.count)
            benchmark.measurement(.tpvPerSecond, capture.tpvPerSecond(since: start))
        }

        // The same capture through `CaptureReplay` alone: decoding and the mapping to source events.
        Benchmark("\(name).decode-only", configuration: .init(tags: tags)) { benchmark in
            let start = ContinuousClock.now
            let replay = CaptureReplay(bytes: capture.bytes, decoder: decoder)
            while let update = replay.next() { blackHole(update) }
            benchmark.measurement(.tpvPerSecond, capture.tpvPerSecond(since: start))
        }
    }

    // One location event of the drive, encoded 1,000 times per operation into the emptied buffer; the
    // table shows figures per encode (`*`).
    let location = capture.typicalLocation
    Benchmark(
        "encode.location",
        configuration: .init(
            metrics: [.wallClock, .instructions, .throughput, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count, .mallocBytesCount: .count],
            scalingFactor: .kilo
        )
    ) { benchmark in
        output.removeAll(keepingCapacity: true)
        let encoder = EventEncoder()
        for _ in benchmark.scaledIterations { encoder.encode(location, into: &output) }
        blackHole(output.count)
    }
}

extension BenchmarkMetric {
    /// TPV reports replayed per second of wall clock, one sample per replay.
    fileprivate static var tpvPerSecond: BenchmarkMetric {
        .custom("TPV per second", polarity: .prefersLarger, useScalingFactor: false)
    }
}

/// The Regensburg capture (gpsd 3.22's `.chk`: 2,803 TPVs in 13,522 lines with NMEA echoes and SKY),
/// with what the benchmarks derive from it outside their measurements.
private struct Capture: Sendable {
    static let regensburg = Capture(fixture: "20100411_Geko_Regensburg.log.chk")

    let bytes: [UInt8]
    let tpvCount: Int
    /// A location from the middle of the drive, numbered as a long-running agent would number it.
    let typicalLocation: Event
    /// Bytes of JSON Lines that one replay writes.
    let outputByteCount: Int

    func tpvPerSecond(since start: ContinuousClock.Instant) -> Int {
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return Int((Double(tpvCount) / elapsed).rounded())
    }

    init(fixture name: String) {
        // Benchmarks/Benchmarks/ReplayBenchmarks/ReplayBenchmarks.swift → the repository root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/Fixtures/gpsd-logs/\(name)").path
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("cannot read the capture \(path)")
        }
        bytes = [UInt8](data)
        tpvCount = bytes.split(separator: UInt8(ascii: "\n")).count { $0.starts(with: #"{"class":"TPV""#.utf8) }

        let replay = CaptureReplay(bytes: bytes)
        var pipeline = EventPipeline()
        let encoder = EventEncoder()
        var locations: [Event] = []
        var output: [UInt8] = []
        while let update = replay.next() {
            for event in pipeline.handle(update) {
                encoder.encode(event, into: &output)
                if case .location = event.kind { locations.append(event) }
            }
        }
        guard !locations.isEmpty else { fatalError("the capture \(path) has no location") }
        var location = locations[locations.count / 2]
        location.seq = 123_456
        typicalLocation = location
        outputByteCount = output.count
    }
}
