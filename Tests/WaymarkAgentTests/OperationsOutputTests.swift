import Foundation
import Testing
import WaymarkCore
import WaymarkFormats
import WaymarkTestSupport

@testable import WaymarkAgent

/// The pieces of `waymark status` and the metrics that need no agent: the exposition format, the JSON tree,
/// the process identity, the table's durations.
@Suite struct OperationsOutputTests {
    @Test(
        "metrics: a series for every event type from the start (beacon included); laid out again when the samples change"
    )
    func eventTypesAndLabelledSamples() {
        var metrics = MetricsText()
        metrics.append(.events) { Double($0) }
        let events = metrics.text()
        for (index, type) in EventType.allCases.enumerated() {
            #expect(events.contains("waymark_events_total{type=\"\(type.rawValue)\"} \(index)\n"))
        }
        #expect(events.contains(#"{type="beacon"}"#))
        // The same samples reuse the layout with this write's values; new label values lay it out again, in the
        // call's order; a family left out is gone from the text.
        let sinks = MetricFamily("waymark_sink_unsent_events", .gauge, "Unsent.", by: "sink", [])
        let age = MetricFamily("waymark_last_fix_age_seconds", .gauge, "Age.")
        let sinksHeader = "# HELP waymark_sink_unsent_events Unsent.\n# TYPE waymark_sink_unsent_events gauge\n"
        let ageHeader = "# HELP waymark_last_fix_age_seconds Age.\n# TYPE waymark_last_fix_age_seconds gauge\n"
        func unsent(_ sink: String, _ value: String) -> String {
            "waymark_sink_unsent_events{sink=\"\(sink)\"} \(value)\n"
        }
        let writes: [(sinks: [(String, Double)], age: Double?, text: String)] = [
            ([("file", 1)], 5, sinksHeader + unsent("file", "1") + ageHeader + "waymark_last_fix_age_seconds 5\n"),
            ([("file", 4)], 6.5, sinksHeader + unsent("file", "4") + ageHeader + "waymark_last_fix_age_seconds 6.5\n"),
            (
                [("traccar", 2), ("file", 3)], 7,
                sinksHeader + unsent("traccar", "2") + unsent("file", "3") + ageHeader
                    + "waymark_last_fix_age_seconds 7\n"
            ),
            ([("traccar", 0), ("file", 3)], nil, sinksHeader + unsent("traccar", "0") + unsent("file", "3")),
        ]
        for write in writes {
            metrics.removeAll()
            metrics.append(sinks, labelled: write.sinks)
            if let seconds = write.age { metrics.append(age, seconds) }
            #expect(metrics.text() == write.text)
        }
        // Numbers: integers without a fraction (up to 10^15), the others as JSON writes them.
        let numbers: [(Double, String)] = [
            (0, "0"), (7, "7"), (10, "10"), (99, "99"), (100, "100"), (1_000_000_007, "1000000007"), (-5, "-5"),
            (999_999_999_999_999, "999999999999999"), (-999_999_999_999_999, "-999999999999999"), (0.25, "0.25"),
            (-0.001, "-0.001"), (.nan, "NaN"), (.infinity, "+Inf"), (-.infinity, "-Inf"),
        ]
        metrics.removeAll()
        metrics.append(sinks, labelled: numbers.map { ($0.1, $0.0) })
        #expect(metrics.text() == sinksHeader + numbers.map { unsent($0.1, $0.1) }.joined())
    }

    @Test("metrics: HELP and TYPE once per family, escaped labels, integers without a fraction")
    func exposition() {
        var metrics = MetricsText()
        let events = MetricFamily("waymark_events_total", .counter, "Events.", by: "type", ["location", "a\"b\\c\nd"])
        metrics.append(events) { [12, 1][$0] }
        metrics.append(MetricFamily("waymark_last_fix_age_seconds", .gauge, "Age."), 0.25)
        metrics.append(MetricFamily("waymark_offset_seconds", .gauge, "Offset."), -1_234_567_890)
        metrics.append(MetricFamily(info: "waymark_build_info", "Build.", ["version": "1.0", "libgps": "11.0"]), 1)
        let sinks = MetricFamily("waymark_sink_unsent_events", .gauge, "Unsent.", by: "sink", [])
        metrics.append(sinks, labelled: [("file", 3), ("h\"ttp", 0)])
        var histogram = Histogram(bounds: [0.01, 0.1])
        for value in [0.005, 0.01, 0.05, 3] { histogram.observe(value) }
        let commits = MetricFamily("waymark_spool_commit_duration_seconds", "Commits.", bucketsOf: histogram)
        metrics.append(commits, histogram)
        #expect(
            metrics.text() == """
                # HELP waymark_events_total Events.
                # TYPE waymark_events_total counter
                waymark_events_total{type="location"} 12
                waymark_events_total{type="a\\"b\\\\c\\nd"} 1
                # HELP waymark_last_fix_age_seconds Age.
                # TYPE waymark_last_fix_age_seconds gauge
                waymark_last_fix_age_seconds 0.25
                # HELP waymark_offset_seconds Offset.
                # TYPE waymark_offset_seconds gauge
                waymark_offset_seconds -1234567890
                # HELP waymark_build_info Build.
                # TYPE waymark_build_info gauge
                waymark_build_info{version="1.0",libgps="11.0"} 1
                # HELP waymark_sink_unsent_events Unsent.
                # TYPE waymark_sink_unsent_events gauge
                waymark_sink_unsent_events{sink="file"} 3
                waymark_sink_unsent_events{sink="h\\"ttp"} 0
                # HELP waymark_spool_commit_duration_seconds Commits.
                # TYPE waymark_spool_commit_duration_seconds histogram
                waymark_spool_commit_duration_seconds_bucket{le="0.01"} 2
                waymark_spool_commit_duration_seconds_bucket{le="0.1"} 3
                waymark_spool_commit_duration_seconds_bucket{le="+Inf"} 4
                waymark_spool_commit_duration_seconds_sum 3.065
                waymark_spool_commit_duration_seconds_count 4

                """
        )
        metrics.removeAll()
        #expect(metrics.render().isEmpty)
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
