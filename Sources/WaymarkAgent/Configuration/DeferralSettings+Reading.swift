import WaymarkCore

extension DeferralSettings {
    /// Reads `[deferred]`. A threshold of zero turns it off (nil). ``endsOnRegion`` is no key of this section:
    /// it follows `[regions] flush`, set once every section is read.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("until_traveled", ValueRule.number(in: 0...1_000_000, "metres").offAtZero, into: &untilTraveled)
        section.read("timeout", ValueRule.duration(atMost: .seconds(86_400)).offAtZero, into: &timeout)
        section.read("max_events", ValueRule.integer(in: 0...1_000_000).offAtZero, into: &maxEvents)
        let bytes = ValueRule.size(atMost: ByteCount(bytes: 64 << 20)).map { Int($0.bytes) }
        section.read("max_bytes", bytes.offAtZero, into: &maxBytes)
    }
}

extension ValueRule where Value: Sendable {
    /// The same check, with the accepted value turned by `transform`.
    fileprivate func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueRule<Other> {
        let check = self.check
        return ValueRule<Other> { value in
            switch check(value) {
            case .accepted(let accepted): .accepted(transform(accepted))
            case .rejected(let message): .rejected(message)
            }
        }
    }
}

extension ValueRule where Value: AdditiveArithmetic & Sendable {
    /// The same check, with zero accepted as nil: the setting is off.
    fileprivate var offAtZero: ValueRule<Value?> { map { $0 == .zero ? nil : $0 } }
}
