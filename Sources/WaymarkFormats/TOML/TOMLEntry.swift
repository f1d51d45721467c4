/// One `key = value` of a TOML table, or one of its sub-tables, with the line it was written on.
public struct TOMLEntry: Sendable, Equatable {
    public var key: String
    public var value: TOMLValue
    /// The 1-based line of the key, or of the `[header]` that opened a sub-table.
    public var line: Int
}
