import Foundation
import Synchronization
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// A ``BlueZScanner`` on a thread of its own against a test's bus, with short retries and batches, and what it
/// emitted.
final class RunningScanner: Sendable {
    let scanner: BlueZScanner
    private let updates = Mutex<[BeaconUpdate]>([])
    private let ended = Mutex(false)

    /// Scans on `bus` with `adapter` (nil: the first powered), all the time or on its duty cycle from the start.
    init(
        bus: String,
        adapter: String? = nil,
        interval: Duration = .seconds(60),
        window: Duration = .seconds(10),
        continuous: Bool = true
    ) {
        scanner = BlueZScanner(
            configuration: BlueZConfiguration(
                busAddress: bus,
                adapter: adapter,
                retryMin: .milliseconds(100),
                retryMax: .milliseconds(400),
                scanInterval: interval,
                scanWindow: window,
                batchInterval: .milliseconds(50)
            )
        ) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return (
                MonotonicInstant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)),
                Timestamp(secondsSince1970: Date().timeIntervalSince1970)
            )
        }
        scanner.setContinuous(continuous)
        Thread.detachNewThread { [self] in
            scanner.run { batch in updates.withLock { $0 += batch } }
            ended.withLock { $0 = true }
        }
    }

    var events: [BeaconSourceEvent] { updates.withLock { $0.map(\.event) } }
    var scanning: [Bool] { events.scanning }
    var failures: [ErrorCode] { events.failures }
    /// Whether ``BlueZScanner/run(emit:)`` returned.
    var hasEnded: Bool { ended.withLock { $0 } }

    /// Waits until `predicate` holds for what was emitted.
    func wait(_ what: String, seconds: Double = 10, until predicate: ([BeaconSourceEvent]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !predicate(events) {
            guard Date() < deadline else { throw TestServerError("no \(what) within \(seconds) s: \(events)") }
            usleep(20_000)
        }
    }

    /// Stops the scanner and waits until ``BlueZScanner/run(emit:)`` returned.
    func stop() {
        scanner.stop()
        let deadline = Date().addingTimeInterval(10)
        while !hasEnded && Date() < deadline { usleep(10_000) }
    }
}

extension [BeaconSourceEvent] {
    /// The `.scanning` events, in order.
    var scanning: [Bool] { compactMap { if case .scanning(let on) = $0 { on } else { nil } } }
    var failures: [ErrorCode] { compactMap { if case .failure(let failure) = $0 { failure.code } else { nil } } }
    var sightings: [BeaconSighting] { compactMap { if case .sighting(let sighting) = $0 { sighting } else { nil } } }
}
