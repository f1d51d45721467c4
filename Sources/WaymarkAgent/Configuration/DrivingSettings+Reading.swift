import WaymarkCore

extension DrivingSettings {
    /// Reads `[driving]`. Speeds are km/h in the file (as on a speedometer and a road sign) and metres per second
    /// in the settings; a key the file does not set leaves its default untouched (no round trip through km/h).
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        Self.readKmh("min_speed", in: 0...300, from: &section, into: &minSpeed)
        section.read("harsh_acceleration", .number(in: 0.1...20, "m/s²"), into: &harshAcceleration)
        section.read("harsh_braking", .number(in: 0.1...20, "m/s²"), into: &harshBraking)
        section.read("harsh_cornering", .number(in: 0.1...20, "m/s²"), into: &harshCornering)
        Self.readKmh("cornering_min_speed", in: 0...300, from: &section, into: &corneringMinSpeed)
        section.read("min_duration", .duration(atMost: .seconds(60), zero: "every window over"), into: &minDuration)
        section.read("window", .duration(moreThan: .zero, atMost: .seconds(3)), into: &window)
        section.read("speed_error", .number(in: 0.01...10, "metres per second"), into: &speedError)
        var limit: Double?
        section.read("overspeed_limit", .number(in: 1...500, "km/h"), into: &limit)
        if let limit { overspeedLimit = limit / 3.6 }
        section.read(
            "overspeed_min_duration",
            .duration(atMost: .seconds(600), zero: "at the first fix over"),
            into: &overspeedMinDuration
        )
        Self.readKmh("overspeed_hysteresis", in: 0...100, from: &section, into: &overspeedHysteresis)
    }

    /// A speed in km/h from the file, into metres per second.
    private static func readKmh(
        _ key: String,
        in range: ClosedRange<Double>,
        from section: inout SectionReader,
        into setting: inout Double
    ) {
        var kmh: Double?
        section.read(key, .number(in: range, "km/h"), into: &kmh)
        if let kmh { setting = kmh / 3.6 }
    }
}
