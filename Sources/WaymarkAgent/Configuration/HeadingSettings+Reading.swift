import WaymarkCore

extension HeadingSettings {
    /// Reads `[heading]`.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("source", .oneOf, into: &source)
        section.read("filter", .number(in: 0...180, "degrees"), into: &filter)
        section.read("max_age", .duration(atMost: .seconds(3600)), into: &maxAge)
        section.read("min_speed", .number(in: 0...100, "metres per second"), into: &minSpeed)
        section.read("smoothing", .duration(atMost: .seconds(60)), into: &smoothing)
    }
}
