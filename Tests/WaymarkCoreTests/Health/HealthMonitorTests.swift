import Testing
import WaymarkCore

/// The health alarms as a state machine: each starts once, when its condition has held as long as its setting
/// says, and ends once.
@Suite struct HealthMonitorTests {
    static func at(_ seconds: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64(seconds) * 1_000_000_000) }

    /// What a step of the receiver does, and what the monitor says: `r` raised, `c` cleared, `-` nothing.
    struct ReceiverStep: CustomTestStringConvertible {
        var second: Int
        var expected: Bool
        var usable: Bool
        var outcome: Character
        var testDescription: String { "t=\(second) expected=\(expected) usable=\(usable) → \(outcome)" }
    }

    static let receiverCases: [(String, [ReceiverStep])] = [
        (
            "silent for no_fix_alarm raises once; a usable fix clears",
            [
                .init(second: 0, expected: true, usable: false, outcome: "-"),
                .init(second: 599, expected: true, usable: false, outcome: "-"),
                .init(second: 600, expected: true, usable: false, outcome: "r"),
                .init(second: 900, expected: true, usable: false, outcome: "-"),
                .init(second: 901, expected: true, usable: true, outcome: "c"),
                .init(second: 902, expected: true, usable: true, outcome: "-"),
            ]
        ),
        (
            "a usable fix restarts the count",
            [
                .init(second: 0, expected: true, usable: false, outcome: "-"),
                .init(second: 500, expected: true, usable: true, outcome: "-"),
                .init(second: 501, expected: true, usable: false, outcome: "-"),
                .init(second: 1000, expected: true, usable: false, outcome: "-"),
                .init(second: 1101, expected: true, usable: false, outcome: "r"),
            ]
        ),
        (
            "not expected (no gpsd, no device, a stationary pause): never raised, and an open alarm ends",
            [
                .init(second: 0, expected: false, usable: false, outcome: "-"),
                .init(second: 700, expected: false, usable: false, outcome: "-"),
                .init(second: 701, expected: true, usable: false, outcome: "-"),
                .init(second: 1301, expected: true, usable: false, outcome: "r"),
                .init(second: 1302, expected: false, usable: false, outcome: "c"),
                .init(second: 1303, expected: true, usable: false, outcome: "-"),
            ]
        ),
    ]

    @Test("receiver_silent", arguments: receiverCases)
    func receiverSilent(_ name: String, _ steps: [ReceiverStep]) {
        var monitor = HealthMonitor()
        for step in steps {
            let changes = monitor.receiver(expected: step.expected, usableFix: step.usable, now: Self.at(step.second))
            #expect(Self.outcome(changes) == step.outcome, "\(name): \(step.testDescription)")
        }
    }

    @Test("a receiver that goes quiet right after a usable fix, with no update at all, raises at the deadline")
    func receiverQuietAfterAFix() {
        var monitor = HealthMonitor(settings: HealthSettings(noFixAlarm: .seconds(60)))
        #expect(monitor.receiver(expected: true, usableFix: true, now: Self.at(5)).isEmpty)
        #expect(monitor.nextDeadline == Self.at(65))
        #expect(Self.outcome(monitor.advance(to: Self.at(65))) == "r")
    }

    @Test("receiver_silent by time alone: the deadline, and advance raising at it")
    func receiverSilentByDeadline() throws {
        var monitor = HealthMonitor(settings: HealthSettings(noFixAlarm: .seconds(60)))
        #expect(monitor.receiver(expected: true, usableFix: false, now: Self.at(10)).isEmpty)
        #expect(monitor.nextDeadline == Self.at(70))
        #expect(monitor.advance(to: Self.at(69)).isEmpty)
        let raised = monitor.advance(to: Self.at(70))
        guard case .raised(let alarm) = try #require(raised.first) else {
            Issue.record("\(raised)")
            return
        }
        #expect(alarm.key == Alarm.Key(kind: .receiverSilent) && alarm.since == Self.at(10))
        #expect(alarm.message.hasPrefix("no usable fix for 1 min"))
        #expect(monitor.nextDeadline == nil)
        #expect(monitor.raised[.receiverSilent] == 1 && monitor.open.count == 1)
    }

    @Test(
        "clock_skew: compared at once, then every clockCheckInterval; raised by two checks in a row, either sign",
        arguments: [
            ([(0, 0.5), (10, 30.0), (300, 30.0), (600, 30.0), (700, 0.2), (900, 0.2)], "---r-c"),
            ([(0, -7200.0), (299, -7200.0), (300, -7200.0), (600, 0.0)], "--rc"),
            ([(0, 5.0), (300, 5.001), (600, 5.001)], "--r"),
            // A time service that sets the clock after the first fix: nothing.
            ([(0, 30.0), (300, 0.1), (600, 30.0)], "---"),
        ]
    )
    func clockSkew(_ samples: [(Int, Double)], _ outcomes: String) {
        var monitor = HealthMonitor()
        var seen = ""
        for (second, offset) in samples {
            let changes = monitor.clock(offset: .milliseconds(Int64(offset * 1000)), now: Self.at(second))
            seen.append(Self.outcome(changes))
        }
        #expect(seen == outcomes)
    }

    @Test("clock_skew says how far and which way")
    func clockSkewMessage() {
        var monitor = HealthMonitor()
        #expect(monitor.clock(offset: .seconds(-7200), now: Self.at(0)).isEmpty)
        let changes = monitor.clock(offset: .seconds(-7200), now: Self.at(300))
        guard case .raised(let alarm) = changes.first else {
            Issue.record("\(changes)")
            return
        }
        #expect(alarm.message.hasPrefix("the system clock is 2.0 h behind GPS time"))
        #expect(monitor.clockOffset == .seconds(-7200))
    }

    @Test(
        "disk_low: below min_free_bytes raises; cleared only an eighth above it; unmeasured changes nothing",
        arguments: [
            ([100, 63, 63, 65, 71, 72, 10], "-r---cr"),
            ([10, nil, 100], "r-c"),
        ] as [([Int64?], String)]
    )
    func diskLow(_ megabytes: [Int64?], _ outcomes: String) {
        var monitor = HealthMonitor()
        var seen = ""
        for (index, free) in megabytes.enumerated() {
            let changes = monitor.disk(
                setting: "[agent] state_dir",
                path: "/var/lib/waymark",
                freeBytes: free.map { $0 << 20 },
                now: Self.at(index)
            )
            seen.append(Self.outcome(changes))
        }
        // 64 MB: 63 raises; 65 and 71 MB stay raised (under 72 MB); 72 MB clears.
        #expect(seen == outcomes)
    }

    @Test(
        "disk_low says sizes in the unit that shows them: never '0 MB free' for 324 KB",
        arguments: [
            (324 << 10, 64 << 20, "has 324 KB free, less than [health] min_free_bytes (64 MB)"),
            (512, 64 << 20, "has 512 bytes free, less than [health] min_free_bytes (64 MB)"),
            (0, 1 << 20, "has 0 bytes free, less than [health] min_free_bytes (1 MB)"),
            (1_572_864, 64 << 20, "has 1.5 MB free, less than [health] min_free_bytes (64 MB)"),
            (13 << 20, 3 << 30, "has 13 MB free, less than [health] min_free_bytes (3 GB)"),
        ] as [(Int64, Int64, String)]
    )
    func diskLowMessage(_ free: Int64, _ threshold: Int64, _ expected: String) throws {
        var monitor = HealthMonitor(settings: HealthSettings(minFreeBytes: threshold))
        let changes = monitor.disk(
            setting: "[agent] state_dir",
            path: "/var/lib/waymark",
            freeBytes: free,
            now: Self.at(0)
        )
        guard case .raised(let alarm) = try #require(changes.first) else {
            Issue.record("not raised: \(changes)")
            return
        }
        #expect(alarm.message.hasPrefix("[agent] state_dir /var/lib/waymark " + expected), "\(alarm.message)")
    }

    @Test("sink_stalled: per sink, raised past max_unsent_age, cleared when it caught up")
    func sinkStalled() {
        var monitor = HealthMonitor(settings: HealthSettings(maxUnsentAge: .seconds(60)))
        #expect(Self.outcome(monitor.sink("file", behindFor: .seconds(60), now: Self.at(0))) == "-")
        #expect(Self.outcome(monitor.sink("file", behindFor: .seconds(61), now: Self.at(1))) == "r")
        #expect(Self.outcome(monitor.sink("http", behindFor: .seconds(90), now: Self.at(1))) == "r")
        #expect(Self.outcome(monitor.sink("file", behindFor: .seconds(120), now: Self.at(2))) == "-")
        #expect(Self.outcome(monitor.sink("file", behindFor: nil, now: Self.at(3))) == "c")
        #expect(monitor.open.keys.map(\.subject) == ["http"])
        #expect(monitor.raised[.sinkStalled] == 2)
    }

    static func outcome(_ changes: [AlarmChange]) -> Character {
        switch changes.first {
        case nil: "-"
        case .raised: "r"
        case .cleared: "c"
        }
    }
}

extension HealthMonitorTests {
    @Test("sink_refused: per sink, raised at once when its server refuses its settings, cleared when it takes events")
    func sinkRefused() {
        var monitor = HealthMonitor()
        #expect(Self.outcome(monitor.sink("traccar", refusal: nil, now: Self.at(0))) == "-")
        #expect(Self.outcome(monitor.sink("traccar", refusal: "HTTP 400", now: Self.at(1))) == "r")
        #expect(Self.outcome(monitor.sink("traccar", refusal: "HTTP 400", now: Self.at(2))) == "-")
        #expect(monitor.open.values.first?.message == "the traccar sink's server refuses its settings: HTTP 400")
        #expect(Self.outcome(monitor.sink("traccar", refusal: nil, now: Self.at(3))) == "c")
        #expect(monitor.raised[.sinkRefused] == 1)
    }

    @Test("sink_over_budget: raised while a sink's locations wait for tomorrow's budget")
    func sinkOverBudget() {
        var monitor = HealthMonitor()
        #expect(Self.outcome(monitor.sink("http", overBudget: "spent", now: Self.at(0))) == "r")
        #expect(Self.outcome(monitor.sink("http", overBudget: "spent", now: Self.at(1))) == "-")
        #expect(Self.outcome(monitor.sink("http", overBudget: nil, now: Self.at(2))) == "c")
    }
}

extension HealthMonitorTests {
    /// A step of the region file: the file named now, or a version of it read (`nil`: loaded), and the outcome.
    struct RegionFileStep: CustomTestStringConvertible {
        enum Input {
            case named(String?)
            case read(String, rejection: String?)
        }
        var input: Input
        var outcome: Character
        var testDescription: String { "\(input) → \(outcome)" }
    }

    static let regionFileCases: [(String, [RegionFileStep])] = [
        (
            "rejected at start raises at once, once; a good version clears",
            [
                .init(input: .read("/r.geojson", rejection: "truncated"), outcome: "r"),
                .init(input: .read("/r.geojson", rejection: "still truncated"), outcome: "-"),
                .init(input: .read("/r.geojson", rejection: nil), outcome: "c"),
                .init(input: .read("/r.geojson", rejection: nil), outcome: "-"),
            ]
        ),
        (
            "a good file raises nothing; a bad version later raises",
            [
                .init(input: .read("/r.geojson", rejection: nil), outcome: "-"),
                .init(input: .read("/r.geojson", rejection: "bad"), outcome: "r"),
            ]
        ),
        (
            "a reload that names another file, or none, clears the old file's alarm",
            [
                .init(input: .read("/a.geojson", rejection: "bad"), outcome: "r"),
                .init(input: .named("/a.geojson"), outcome: "-"),
                .init(input: .named("/b.geojson"), outcome: "c"),
                .init(input: .read("/b.geojson", rejection: "bad too"), outcome: "r"),
                .init(input: .named(nil), outcome: "c"),
            ]
        ),
    ]

    @Test(
        "region_file_rejected: raised when the file is rejected, cleared when it loads or is no longer named",
        arguments: regionFileCases
    )
    func regionFileRejected(_ name: String, _ steps: [RegionFileStep]) {
        var monitor = HealthMonitor()
        for (index, step) in steps.enumerated() {
            let changes =
                switch step.input {
                case .named(let path): monitor.regionFile(named: path, now: Self.at(index))
                case .read(let path, let rejection): monitor.regionFile(path, rejection: rejection, now: Self.at(index))
                }
            #expect(Self.outcome(changes) == step.outcome, "\(name), step \(index): \(step.testDescription)")
        }
    }

    @Test("region_file_rejected: one per file, its path as the subject, its message as given")
    func regionFileSubject() {
        var monitor = HealthMonitor()
        _ = monitor.regionFile("/etc/waymark/regions.geojson", rejection: "cut short", now: Self.at(5))
        let alarm = monitor.open[Alarm.Key(kind: .regionFileRejected, subject: "/etc/waymark/regions.geojson")]
        #expect(alarm?.message == "cut short")
        #expect(alarm?.since == Self.at(5))
        #expect(Alarm.Kind.regionFileRejected.code.rawValue == "region_file_rejected")
        #expect(monitor.raised[.regionFileRejected] == 1)
    }

    @Test("beacon_source_failed: per part, raised at once at the first failure, not again, cleared when it works")
    func beaconSourceFailed() {
        var monitor = HealthMonitor()
        // (part, failure or nil, the outcome)
        let steps: [(String, String?, Character)] = [
            ("scanning", nil, "-"),
            ("scanning", "hci0 is powered off", "r"),
            ("scanning", "bluetoothd left the system bus", "-"),
            ("advertising", "org.bluez.Error.NotPermitted: Maximum advertisements reached", "r"),
            ("scanning", nil, "c"),
            ("scanning", nil, "-"),
            ("advertising", nil, "c"),
        ]
        for (index, (part, failure, outcome)) in steps.enumerated() {
            let changes = monitor.beaconSource(part, failure: failure, now: Self.at(index))
            #expect(Self.outcome(changes) == outcome, "step \(index): \(part) \(failure ?? "works")")
        }
        #expect(monitor.raised[.beaconSourceFailed] == 2)
        #expect(monitor.open.isEmpty)
        _ = monitor.beaconSource("advertising", failure: "hci0 was removed", now: Self.at(9))
        let alarm = monitor.open[Alarm.Key(kind: .beaconSourceFailed, subject: "advertising")]
        #expect(alarm?.message == "beacon advertising: hci0 was removed")
        #expect(Alarm.Kind.beaconSourceFailed.code.rawValue == "beacon_source_failed")
    }
}
