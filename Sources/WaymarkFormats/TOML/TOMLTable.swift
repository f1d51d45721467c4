/// A TOML table: its keys and sub-tables in the order they were written.
public struct TOMLTable: Sendable, Equatable {
    /// The keys and sub-tables, in the order they were first written.
    public private(set) var entries: [TOMLEntry] = []
    /// True for a table that no `[header]` opened, only a longer one: `sinks` in `[sinks.file]`.
    public var isImplied = false
    private var positions: [String: Int] = [:]

    public init(isImplied: Bool = false) {
        self.isImplied = isImplied
    }

    /// The entry for `key`, if the table has one.
    public subscript(key: String) -> TOMLEntry? {
        positions[key].map { entries[$0] }
    }

    /// Adds an entry whose key the table does not have yet.
    mutating func append(_ entry: TOMLEntry) {
        precondition(positions[entry.key] == nil, "duplicate key \(entry.key)")
        positions[entry.key] = entries.count
        entries.append(entry)
    }
}
