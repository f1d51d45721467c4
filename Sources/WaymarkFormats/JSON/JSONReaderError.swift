/// A text that is not JSON as ``JSONReader`` accepts it: malformed, or beyond a ``JSONLimits``.
///
/// Its ``description`` names the position and the problem: `3:17: expected , or } after a member, found ]`.
public struct JSONReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the offending byte is; for a string, array or object that is never closed, where it opens.
    public var position: TextPosition
    /// What is wrong, for a person.
    public var message: String

    public init(position: TextPosition, message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position): \(message)" }
}
