import Foundation
import Synchronization
import WaymarkBluetooth
import WaymarkCore
import WaymarkTestSupport

/// A ``BlueZAdvertiser`` on a thread of its own against a test's bus, with short retries, and what it emitted.
final class RunningAdvertiser: Sendable {
    let advertiser: BlueZAdvertiser
    private let emitted = Mutex<[AdvertiserEvent]>([])
    private let ended = Mutex(false)

    init(bus: String, beacon: BeaconID, measuredPower: Int = -59, interval: Duration? = .milliseconds(100)) throws {
        advertiser = BlueZAdvertiser(
            configuration: try AdvertiserConfiguration(
                busAddress: bus,
                beacon: beacon,
                measuredPower: measuredPower,
                interval: interval,
                retryMin: .milliseconds(100),
                retryMax: .milliseconds(400)
            )
        ) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return MonotonicInstant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        }
        Thread.detachNewThread { [self] in
            advertiser.run { event in emitted.withLock { $0.append(event) } }
            ended.withLock { $0 = true }
        }
    }

    var events: [AdvertiserEvent] { emitted.withLock { $0 } }
    /// The `.advertising` events, as "on" or "off reason".
    var changes: [String] {
        events.compactMap { event in
            guard case .advertising(let on, let reason) = event else { return nil }
            return on ? "on" : "off" + (reason.map { " \($0)" } ?? "")
        }
    }
    var failures: [ErrorCode] {
        events.compactMap { if case .failure(let failure) = $0 { failure.code } else { nil } }
    }
    var hasEnded: Bool { ended.withLock { $0 } }

    /// Waits until `predicate` holds for what was emitted.
    func wait(_ what: String, seconds: Double = 10, until predicate: (RunningAdvertiser) -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !predicate(self) {
            guard Date() < deadline else { throw TestServerError("no \(what) within \(seconds) s: \(events)") }
            usleep(20_000)
        }
    }

    /// Stops the advertiser and waits until ``BlueZAdvertiser/run(emit:)`` returned.
    func stop() {
        advertiser.stop()
        let deadline = Date().addingTimeInterval(10)
        while !hasEnded && Date() < deadline { usleep(10_000) }
    }
}
