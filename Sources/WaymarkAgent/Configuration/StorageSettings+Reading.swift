extension SpoolSettings {
    /// Reads `[spool]`.
    mutating func read(from section: inout SectionReader) {
        section.read(
            "commit_interval",
            .duration(atMost: .seconds(60), zero: "every event alone"),
            into: &commitInterval
        )
        let sizes = ByteCount(bytes: 64 << 10)...ByteCount(bytes: 64 << 30)  // 64KB to 64GB
        section.read("max_bytes", .size(in: sizes), into: &maxBytes)
    }
}

extension FileSinkSettings {
    /// Reads `[sinks.file]`.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("max_age_days", .integer(in: 0...3650), into: &maxAgeDays)
        let sizes = ByteCount(bytes: 1 << 20)...ByteCount(bytes: 1 << 40)  // 1MB to 1TB
        section.read("max_total_bytes", .size(in: sizes), into: &maxTotalBytes)
    }
}
