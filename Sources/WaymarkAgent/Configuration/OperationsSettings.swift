import WaymarkCore

/// `[metrics]`: Prometheus metrics as a file for node_exporter's textfile collector.
public struct MetricsSettings: Sendable, Equatable {
    /// The file the metrics are written to (`textfile`), replaced atomically; nil writes none.
    public var textfile: String?
    /// How often the file is written, and the free space and the sinks' backlogs checked (`interval`).
    public var interval: Duration

    public init(textfile: String? = nil, interval: Duration = .seconds(15)) {
        self.textfile = textfile
        self.interval = interval
    }
}

extension MetricsSettings {
    /// Reads `[metrics]`.
    mutating func read(from section: inout SectionReader) {
        var path = textfile ?? ""
        // node_exporter's textfile collector reads `*.prom` files only: any other name would be ignored.
        let textfileRule = ValueRule<String>.string("an absolute path ending in .prom") { path in
            path.hasPrefix("/") && path.hasSuffix(".prom") && !path.hasSuffix("/.prom")
        }
        section.read("textfile", textfileRule, into: &path)
        textfile = path.isEmpty ? nil : path
        section.read("interval", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &interval)
    }
}

extension HealthSettings {
    /// Reads `[health]`.
    mutating func read(from section: inout SectionReader) {
        section.read("no_fix_alarm", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &noFixAlarm)
        section.read("max_clock_skew", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &maxClockSkew)
        section.read(
            "clock_check_interval",
            .duration(moreThan: .zero, atMost: .seconds(86_400)),
            into: &clockCheckInterval
        )
        var minimum = ByteCount(bytes: minFreeBytes)
        section.read("min_free_bytes", .size(atMost: ByteCount(bytes: 1 << 40)), into: &minimum)
        minFreeBytes = minimum.bytes
        section.read("max_unsent_age", .duration(moreThan: .zero, atMost: .seconds(30 * 86_400)), into: &maxUnsentAge)
    }
}
