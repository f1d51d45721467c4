import WaymarkCore

extension ActivitySettings {
    /// Reads `[activity]`: first `type`, whose thresholds are the defaults of the keys the file leaves out.
    mutating func read(from section: inout SectionReader) {
        section.read("type", .oneOf, into: &type)
        self = ActivitySettings(type: type)
        let wait = ValueRule.duration(moreThan: .zero, atMost: .seconds(86_400))
        section.read("pauses_automatically", .boolean, into: &pausesAutomatically)
        section.read("pause_after", wait, into: &pauseAfter)
        section.read("stationary_radius", .number(in: 1...10_000, "metres"), into: &stationaryRadius)
        section.read("stationary_speed", .number(in: 0.1...100, "metres per second"), into: &stationarySpeed)
        section.read("no_fix_pause_after", wait, into: &noFixPauseAfter)
        section.read("max_accuracy", .number(in: 1...100_000, "metres"), into: &maxAccuracy)
        section.read("power_save", .boolean, into: &powerSave)
        section.read("probe_interval", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &probeInterval)
        section.read("probe_timeout", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &probeTimeout)
    }
}
