import Foundation
import Synchronization
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkBluetooth

/// The paused agent's duty cycle: ``BlueZConfiguration/dutyCycle(startedAt:now:)`` at explicit instants, and the
/// live scanner turning BlueZ's discovery on and off by it through a real `dbus-daemon` with python3-dbusmock's
/// BlueZ stand-in.
@Suite(.serialized) struct DutyCycleTests {
    /// Any instant will do as the cycle's start: not the clock's origin, so that a cycle counted from zero shows.
    static let start = MonotonicInstant(nanoseconds: 7_123_456_789)

    /// One row: the cycle, the instant (after the start), and what the duty cycle says there.
    struct Row: Sendable, CustomTestStringConvertible {
        var interval: Duration
        var window: Duration
        var elapsed: Duration
        var scanning: Bool
        /// When that changes, after the start; nil: never.
        var until: Duration?

        var testDescription: String {
            "window \(window) of \(interval), at +\(elapsed): \(scanning ? "scanning" : "idle") until "
                + (until.map { "+\($0)" } ?? "never")
        }
    }

    static func row(
        _ interval: Duration,
        _ window: Duration,
        at elapsed: Duration,
        _ scanning: Bool,
        until: Duration?
    ) -> Row {
        Row(interval: interval, window: window, elapsed: elapsed, scanning: scanning, until: until)
    }

    /// Scanning in [k·interval, k·interval + window), idle for the rest of each interval.
    static let windowShorterThanInterval: [Row] = [
        // The defaults: 10 s of every minute.
        row(.seconds(60), .seconds(10), at: .zero, true, until: .seconds(10)),
        row(.seconds(60), .seconds(10), at: .seconds(9) + .nanoseconds(999_999_999), true, until: .seconds(10)),
        row(.seconds(60), .seconds(10), at: .seconds(10), false, until: .seconds(60)),
        row(.seconds(60), .seconds(10), at: .seconds(30), false, until: .seconds(60)),
        row(.seconds(60), .seconds(10), at: .seconds(59) + .nanoseconds(999_999_999), false, until: .seconds(60)),
        row(.seconds(60), .seconds(10), at: .seconds(60), true, until: .seconds(70)),
        row(.seconds(60), .seconds(10), at: .seconds(65), true, until: .seconds(70)),
        row(.seconds(60), .seconds(10), at: .seconds(70), false, until: .seconds(120)),
        // An hour on: the 61st window.
        row(.seconds(60), .seconds(10), at: .seconds(3605), true, until: .seconds(3610)),
        row(.seconds(60), .seconds(10), at: .seconds(3611), false, until: .seconds(3660)),
        // Sub-second: 300 ms of every second.
        row(.seconds(1), .milliseconds(300), at: .zero, true, until: .milliseconds(300)),
        row(.seconds(1), .milliseconds(300), at: .milliseconds(299), true, until: .milliseconds(300)),
        row(.seconds(1), .milliseconds(300), at: .milliseconds(300), false, until: .seconds(1)),
        row(.seconds(1), .milliseconds(300), at: .milliseconds(999), false, until: .seconds(1)),
        row(.seconds(1), .milliseconds(300), at: .seconds(1), true, until: .milliseconds(1300)),
        row(.seconds(1), .milliseconds(300), at: .milliseconds(2299), true, until: .milliseconds(2300)),
        row(.seconds(1), .milliseconds(300), at: .milliseconds(2300), false, until: .seconds(3)),
        row(.seconds(1), .milliseconds(300), at: .seconds(2) + .nanoseconds(999_999_999), false, until: .seconds(3)),
        // A window one nanosecond short of the interval is idle for that nanosecond.
        row(.seconds(5), .seconds(5) - .nanoseconds(1), at: .seconds(5) - .nanoseconds(1), false, until: .seconds(5)),
        row(.seconds(5), .seconds(5) - .nanoseconds(1), at: .seconds(5), true, until: .seconds(10) - .nanoseconds(1)),
    ]

    /// A window as long as the interval, or longer, scans all the time: no change ever.
    static let windowNotShorterThanInterval: [Row] = [
        row(.seconds(60), .seconds(60), at: .zero, true, until: nil),
        row(.seconds(60), .seconds(60), at: .seconds(59), true, until: nil),
        row(.seconds(60), .seconds(60), at: .seconds(61), true, until: nil),
        row(.seconds(10), .seconds(60), at: .seconds(15), true, until: nil),
        row(.seconds(1), .seconds(2), at: .seconds(3600), true, until: nil),
    ]

    @Test(arguments: windowShorterThanInterval + windowNotShorterThanInterval)
    func scansInTheWindowOfEachInterval(_ row: Row) {
        let configuration = BlueZConfiguration(scanInterval: row.interval, scanWindow: row.window)
        let cycle = configuration.dutyCycle(startedAt: Self.start, now: Self.start + row.elapsed)
        #expect(cycle.scanning == row.scanning)
        #expect(cycle.until == row.until.map { Self.start + $0 })
    }

    @Test func theDefaultsScanTenSecondsOfEveryMinute() {
        let configuration = BlueZConfiguration()
        let inWindow = configuration.dutyCycle(startedAt: Self.start, now: Self.start + .seconds(5))
        #expect(inWindow.scanning && inWindow.until == Self.start + .seconds(10))
        let between = configuration.dutyCycle(startedAt: Self.start, now: Self.start + .seconds(15))
        #expect(!between.scanning && between.until == Self.start + .seconds(60))
    }

    /// At every instant of five intervals, 37 ms apart: scanning exactly when the time since the start, modulo
    /// the interval, is less than the window; `until` is the next instant the answer changes.
    @Test(arguments: [
        (Duration.seconds(1), Duration.milliseconds(300)), (.seconds(60), .seconds(10)), (.seconds(7), .seconds(1)),
        (.milliseconds(250), .milliseconds(249)),
    ])
    func untilIsTheNextChange(interval: Duration, window: Duration) {
        let configuration = BlueZConfiguration(scanInterval: interval, scanWindow: window)
        var elapsed = Duration.zero
        var checked = 0
        while elapsed < interval * 5 {
            defer { elapsed += .milliseconds(37) }
            let now = Self.start + elapsed
            let cycle = configuration.dutyCycle(startedAt: Self.start, now: now)
            let phase = elapsed.nanoseconds % interval.nanoseconds
            #expect(cycle.scanning == (phase < window.nanoseconds), "at +\(elapsed)")
            guard let until = cycle.until else {
                Issue.record("at +\(elapsed): no change for a window shorter than the interval")
                return
            }
            #expect(until > now, "at +\(elapsed)")
            #expect(until - now <= interval, "at +\(elapsed)")
            #expect(
                configuration.dutyCycle(startedAt: Self.start, now: until + .nanoseconds(-1)).scanning
                    == cycle.scanning,
                "just before +\(until - Self.start)"
            )
            #expect(
                configuration.dutyCycle(startedAt: Self.start, now: until).scanning != cycle.scanning,
                "at +\(until - Self.start)"
            )
            checked += 1
        }
        #expect(checked > 30)
    }

    // MARK: - The live scanner

    /// Whether the BlueZ stand-in's adapter `name` is discovering (its `Discovering` property).
    static func discovering(_ bus: BlueZTestBus, _ name: String = "hci0") throws -> Bool {
        let value = try bus.send(["op": "discovering", "name": name])
        return try #require(value as? Bool)
    }

    /// Reads the adapter's `Discovering` every 25 ms for `seconds`.
    static func poll(_ bus: BlueZTestBus, seconds: Double) throws -> [Bool] {
        var seen: [Bool] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            seen.append(try discovering(bus))
            usleep(25_000)
        }
        return seen
    }

    @Test func pausedItScansOnItsDutyCycleAndTrackingItScansAllTheTime() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        // 300 ms of every second: on, off after 0.3 s, on at 1 s, off at 1.3 s, …
        let running = RunningScanner(
            bus: bus.address,
            interval: .seconds(1),
            window: .milliseconds(300),
            continuous: false
        )
        defer { running.stop() }
        try running.wait("the first window") { $0.scanning.first == true }
        let discovering = try Self.poll(bus, seconds: 3.5)
        let cycled = running.scanning
        #expect(cycled.filter { $0 }.count >= 2 && cycled.filter { !$0 }.count >= 2, "\(cycled)")
        #expect(zip(cycled, cycled.dropFirst()).allSatisfy { $0 != $1 }, "on and off alternate: \(cycled)")
        #expect(cycled.count <= 10, "one change per window edge, not more: \(cycled)")
        #expect(discovering.contains(false), "BlueZ's discovery was stopped between the windows")
        #expect(discovering.contains(true), "and started in them")
        #expect(running.failures.isEmpty, "\(running.events)")

        // Tracking: discovery on for good.
        running.scanner.setContinuous(true)
        try running.wait("scanning for good") { $0.scanning.last == true }
        let before = running.scanning.count
        usleep(100_000)
        let held = try Self.poll(bus, seconds: 1.5)
        #expect(held.allSatisfy { $0 }, "Discovering stayed true: \(held)")
        #expect(running.scanning.count == before, "no change while tracking: \(running.scanning)")
    }

    @Test func theScannedAdapterRemovedIsNoAdapter() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let running = RunningScanner(bus: bus.address, continuous: true)
        defer { running.stop() }
        try running.wait("scanning") { $0.scanning == [true] }
        try bus.send(["op": "remove_adapter", "name": "hci0"])
        try running.wait("no adapter") { $0.failures == [.bluetoothNoAdapter] }
        #expect(running.scanning == [true, false])
        // Said once, though the scanner goes on looking.
        usleep(800_000)
        #expect(running.failures == [.bluetoothNoAdapter])
        // An adapter plugged in again is scanned with.
        try bus.send(["op": "adapter", "name": "hci0"])
        try running.wait("scanning again") { $0.scanning == [true, false, true] }
        #expect(try Self.discovering(bus))
    }

    @Test func stoppedItStopsDiscovery() throws {
        let bus = try BlueZTestBus()
        try bus.send(["op": "adapter", "name": "hci0"])
        let running = RunningScanner(bus: bus.address, continuous: true)
        try running.wait("scanning") { $0.scanning == [true] }
        #expect(try Self.discovering(bus))
        running.stop()
        #expect(running.hasEnded, "run(emit:) returned after stop()")
        #expect(running.scanning == [true, false])
        #expect(try Self.discovering(bus) == false, "StopDiscovery was called")
    }
}
