/// The kind of a JSON value, as ``JSONReader/peek()`` sees it from its first byte.
public enum JSONKind: Hashable, Sendable, CustomStringConvertible {
    case null
    case boolean
    case number
    case string
    case array
    case object

    /// With its article, for messages: `an array`, `a string`.
    public var description: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
