import WaymarkCore

extension DrivingSettings {
    /// Reads `[driving]`. Speeds are km/h in the file (as on a speedometer and a road sign) and metres per second
    /// in the settings.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        var kmh = minSpeed * 3.6
        section.read("min_speed", .number(in: 0...300, "km/h"), into: &kmh)
        minSpeed = kmh / 3.6
        section.read("harsh_acceleration", .number(in: 0.1...20, "m/s²"), into: &harshAcceleration)
        section.read("harsh_braking", .number(in: 0.1...20, "m/s²"), into: &harshBraking)
        section.read("harsh_cornering", .number(in: 0.1...20, "m/s²"), into: &harshCornering)
        kmh = corneringMinSpeed * 3.6
        section.read("cornering_min_speed", .number(in: 0...300, "km/h"), into: &kmh)
        corneringMinSpeed = kmh / 3.6
        section.read("min_duration", .duration(atMost: .seconds(60), zero: "every window over"), into: &minDuration)
        section.read("window", .duration(moreThan: .zero, atMost: .seconds(3)), into: &window)
        section.read("speed_error", .number(in: 0.01...10, "metres per second"), into: &speedError)
        var limit = overspeedLimit.map { $0 * 3.6 }
        section.read("overspeed_limit", .number(in: 1...500, "km/h"), into: &limit)
        overspeedLimit = limit.map { $0 / 3.6 }
        section.read(
            "overspeed_min_duration",
            .duration(atMost: .seconds(600), zero: "at the first fix over"),
            into: &overspeedMinDuration
        )
        kmh = overspeedHysteresis * 3.6
        section.read("overspeed_hysteresis", .number(in: 0...100, "km/h"), into: &kmh)
        overspeedHysteresis = kmh / 3.6
    }
}
