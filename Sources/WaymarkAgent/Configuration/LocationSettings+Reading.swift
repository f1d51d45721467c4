import WaymarkCore

extension LocationSettings {
    /// The longest interval a file may set for the interval triggers: one day.
    static let longestInterval: Duration = .seconds(86_400)

    /// Reads `[location]`.
    mutating func read(from section: inout SectionReader) {
        let interval = ValueRule<Duration>.duration(atMost: Self.longestInterval)
        section.read("mode", .oneOf, into: &mode)
        section.read("desired_accuracy", .desiredAccuracy, into: &desiredAccuracy)
        section.read("distance_filter", .number(in: 0...100_000, "metres"), into: &distanceFilter)
        section.read("max_fix_age", .duration(atMost: .seconds(3600)), into: &maxFixAge)
        section.read("min_interval", interval, into: &minInterval)
        section.read("heartbeat", interval, into: &heartbeat)
        section.read("angle_filter", .number(in: 0...180, "degrees"), into: &angleFilter)
        section.read("speed_delta", .number(in: 0...100, "metres per second"), into: &speedDelta)
        section.read("moving_speed", .number(in: 0...100, "metres per second"), into: &movingSpeed)
        section.read("significant_distance", .number(in: 1...100_000, "metres"), into: &significantDistance)
        section.read("significant_interval", interval, into: &significantInterval)
    }
}

extension ValueRule where Value == DesiredAccuracy {
    /// A named level of Core Location, or a number of metres.
    static var desiredAccuracy: ValueRule {
        let names = DesiredAccuracy.named.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let metres = ValueRule<Double>.number(in: 0.1...100_000, "metres")
        return ValueRule { value in
            if case .string(let name) = value {
                guard let level = DesiredAccuracy.named.first(where: { $0.name == name }) else {
                    return .rejected("must be one of \(names), or a number of metres from 0.1 to 100000")
                }
                return .accepted(level.accuracy)
            }
            switch metres.check(value) {
            case .accepted(let bound): return .accepted(.meters(bound))
            case .rejected(let message):
                return .rejected("\(message), or one of \(names)")
            }
        }
    }
}
