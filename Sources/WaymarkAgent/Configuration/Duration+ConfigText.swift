import WaymarkCore

extension Duration {
    private static let configUnits: [(name: String, size: Int64)] = [
        ("d", 86_400_000_000_000), ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000),
        ("ms", 1_000_000),
    ]
    private static let configUnitsByName = Dictionary(uniqueKeysWithValues: configUnits)

    /// Reads a duration as the configuration file writes it: a number and one unit, with no space.
    ///
    /// The units are `ms`, `s`, `m` (minutes), `h` and `d` (days of 24 hours): `"500ms"`, `"5s"`, `"1.5s"`,
    /// `"3m"`, `"2h"`, `"1d"`, `"0s"`. Returns nil for anything else, including a sign, a bare number, a
    /// fraction finer than a nanosecond and a duration beyond 292 years.
    public init?(configText text: String) {
        guard let nanoseconds = ConfigQuantity.parse(text, units: Self.configUnitsByName) else { return nil }
        self = .nanoseconds(nanoseconds)
    }

    /// The duration as the configuration file writes it, in the largest unit that holds it whole: `"30s"`,
    /// `"1500ms"`, `"2h"`.
    ///
    /// For a duration of zero or more, ``init(configText:)`` reads the result back to the same duration, to the
    /// nanosecond. A duration that is not a whole number of milliseconds is written in seconds with a fraction:
    /// 250 µs as `"0.00025s"`.
    public var configText: String {
        let nanoseconds = self.nanoseconds  // WaymarkCore's conversion, saturating at the ends of Int64
        guard nanoseconds != .max && nanoseconds != .min else { return "\(components.seconds)s" }
        if nanoseconds == 0 { return "0s" }
        guard !nanoseconds.isMultiple(of: 1_000_000) else {
            return ConfigQuantity.format(nanoseconds / 1_000_000, units: Self.configUnits.map { ($0, $1 / 1_000_000) })
        }
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        var fraction = String(magnitude % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" {
            fraction.removeLast()
        }
        return "\(sign)\(magnitude / 1_000_000_000).\(fraction)s"
    }
}
