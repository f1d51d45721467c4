import Testing
import WaymarkFormats

@testable import WaymarkAgent

/// The pieces of `waymark status` and the metrics that need no agent: the exposition format, the JSON tree,
/// the process identity, the table's durations.
@Suite struct OperationsOutputTests {
    @Test("metrics: HELP and TYPE once per family, escaped labels, integers without a fraction")
    func exposition() {
        var metrics = MetricsText()
        metrics.counter(
            "waymark_events_total",
            "Events.",
            [([("type", "location")], 12), ([("type", "a\"b\\c\nd")], 1)]
        )
        metrics.gauge("waymark_last_fix_age_seconds", "Age.", 0.25)
        var histogram = Histogram(bounds: [0.01, 0.1])
        for value in [0.005, 0.01, 0.05, 3] { histogram.observe(value) }
        metrics.histogram("waymark_spool_commit_duration_seconds", "Commits.", histogram)
        #expect(
            metrics.text == """
                # HELP waymark_events_total Events.
                # TYPE waymark_events_total counter
                waymark_events_total{type="location"} 12
                waymark_events_total{type="a\\"b\\\\c\\nd"} 1
                # HELP waymark_last_fix_age_seconds Age.
                # TYPE waymark_last_fix_age_seconds gauge
                waymark_last_fix_age_seconds 0.25
                # HELP waymark_spool_commit_duration_seconds Commits.
                # TYPE waymark_spool_commit_duration_seconds histogram
                waymark_spool_commit_duration_seconds_bucket{le="0.01"} 2
                waymark_spool_commit_duration_seconds_bucket{le="0.1"} 3
                waymark_spool_commit_duration_seconds_bucket{le="+Inf"} 4
                waymark_spool_commit_duration_seconds_sum 3.065
                waymark_spool_commit_duration_seconds_count 4

                """
        )
    }

    @Test("JSONValue: read, changed and written back in the same member order")
    func jsonTree() throws {
        let text = #"{"b":1,"a":[true,null,"x\"y"],"c":{"d":2.5}}"#
        var value = try JSONValue(parsing: Array(text.utf8))
        #expect(value.text == text)
        #expect(value["c"]?["d"]?.number == 2.5 && value["a"]?.elements?.count == 3)
        value.set("b", .string("one"))
        value.set("e", .boolean(false))
        #expect(value.text == #"{"b":"one","a":[true,null,"x\"y"],"c":{"d":2.5},"e":false}"#)
        #expect(throws: (any Error).self) { try JSONValue(parsing: Array(#"{"a":1"#.utf8)) }
    }

    @Test("this process is running; a process id with another start time is not")
    func processIdentity() throws {
        let current = ProcessIdentity.current
        let ticks = try #require(current.startTicks)
        #expect(current.isRunning)
        #expect(!ProcessIdentity(pid: current.pid, startTicks: ticks + 1).isRunning)
        #expect(!ProcessIdentity(pid: 0, startTicks: nil).isRunning)
    }

    @Test(
        "durations for a person",
        arguments: [
            (0.4, "0 s"), (119, "119 s"), (120, "2 min"), (7199, "119 min"), (7260, "2 h 01 min"), (200_000, "2 d 7 h"),
        ]
    )
    func durations(_ seconds: Double, _ text: String) {
        #expect(StatusTable.duration(seconds) == text)
    }
}
