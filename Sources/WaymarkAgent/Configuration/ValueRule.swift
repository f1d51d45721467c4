import WaymarkFormats

/// What a configuration key accepts: how its TOML value is checked and turned into a setting, and what a
/// message says it must be when it is not.
///
/// The rules that sections use are in `ValueRule+Common.swift`.
struct ValueRule<Value>: Sendable {
    enum Outcome {
        case accepted(Value)
        /// The value is not allowed, for the reason in the message: `must be an integer from 1 to 65535`.
        case rejected(String)
    }

    /// Checks one value.
    let check: @Sendable (TOMLValue) -> Outcome

    init(check: @escaping @Sendable (TOMLValue) -> Outcome) {
        self.check = check
    }
}
