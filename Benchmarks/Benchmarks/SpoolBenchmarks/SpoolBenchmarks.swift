import Benchmark
import Foundation
import WaymarkCore
import WaymarkGPSD
import WaymarkStore

/// Ingest into the spool: the events of the Regensburg drive (replayed once, outside the measurements),
/// encoded and committed as the agent does it, with group commit and with every event committed alone.
///
/// One operation of `spool.ingest.group-commit` encodes and commits 10,000 events in one transaction (one
/// `commit_interval` of a replay as fast as possible); `spool.ingest.each-event` commits 500 events, each in
/// its own transaction (`commit_interval = "0s"`). Both report events per second. The spool keeps its default
/// 64 MB: as a sink would, each commit marks the events before it delivered, so the spool stays at its size
/// and makes room as it does on a board that has run for weeks.
///
/// The `.4k-pages` peers do the same in a spool whose file was made with SQLite's default 4 KB pages, as
/// spools were before new ones got 1 KB pages (``Spool`` keeps an existing file's page size).
let benchmarks: @Sendable () -> Void = {
    let drive = Drive.regensburg
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, .eventsPerSecond],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count, .peakMemoryResident: .mega],
        warmupIterations: 2,
        maxDuration: .seconds(5),
        maxIterations: 200
    )

    let kinds = [("group-commit", 10_000, false), ("each-event", 500, true)]
    for (kind, batch, alone) in kinds {
        for fourKilobytePages in [false, true] {
            let name = fourKilobytePages ? kind + ".4k-pages" : kind
            let directory = Drive.temporaryDirectory(name)
            if fourKilobytePages {
                try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try! Database(path: directory + "/" + Spool.fileName)
                    .execute("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; VACUUM")
            }
            let spool = try! Spool.open(inDirectory: directory, now: Timestamp(seconds: 0)).0
            var seq: UInt64 = 0
            Benchmark("spool.ingest.\(name)", configuration: .init(tags: ["events_per_op": "\(batch)"])) { benchmark in
                let start = ContinuousClock.now
                let encoder = EventEncoder()
                var commit = SpoolCommit()
                commit.maxBytes = 64 << 20
                commit.delivered = seq
                for index in 0..<batch {
                    seq += 1
                    var event = drive.events[index % drive.events.count]
                    event.seq = seq
                    commit.events.append(StoredEvent(event, encoder: encoder))
                    if alone {
                        try! spool.commit(commit)
                        commit.events.removeAll(keepingCapacity: true)
                    }
                }
                if !alone { try! spool.commit(commit) }
                let elapsed = (ContinuousClock.now - start) / .seconds(1)
                benchmark.measurement(.eventsPerSecond, Int((Double(batch) / elapsed).rounded()))
            }
        }
    }
}

extension BenchmarkMetric {
    fileprivate static var eventsPerSecond: BenchmarkMetric {
        .custom("events per second", polarity: .prefersLarger, useScalingFactor: false)
    }
}

/// The events the pipeline emits for the Regensburg capture.
private struct Drive: Sendable {
    static let regensburg = Drive(fixture: "20100411_Geko_Regensburg.log.chk")

    let events: [Event]

    init(fixture name: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        guard
            let data = FileManager.default.contents(
                atPath: root.appendingPathComponent("Tests/Fixtures/gpsd-logs/\(name)").path
            )
        else { fatalError("cannot read the capture \(name)") }
        let replay = CaptureReplay(bytes: [UInt8](data))
        var pipeline = EventPipeline()
        var events: [Event] = []
        while let update = replay.next() { events += pipeline.handle(update) }
        self.events = events
    }

    /// A fresh directory for one benchmark's spool, in the system's temporary directory.
    static func temporaryDirectory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "waymark-spool-benchmark-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        return path
    }
}
