/// Assembles the tables of a ``TOMLDocument`` as the parser meets headers and keys, and rejects what TOML
/// forbids: a key or a table defined twice, and a table over a key that holds a value.
struct TOMLDocumentBuilder {
    private struct PendingTable {
        /// The keys written under the table's header, without sub-tables.
        var table: TOMLTable
        /// The line of the table's header, or of the first header that implied it.
        var line: Int
        /// Whether a `[header]` of this very table was written (the root counts as written).
        var hasHeader: Bool
        /// The names of the sub-tables, in the order they appeared.
        var children: [String] = []
    }

    private let fileName: String
    private var tables: [[String]: PendingTable] = [[]: PendingTable(table: TOMLTable(), line: 1, hasHeader: true)]
    private var current: [String] = []

    init(fileName: String) {
        self.fileName = fileName
    }

    /// Makes `[path]`, written on `line`, the table that the following keys go into.
    mutating func openTable(_ path: [String], line: Int) throws(TOMLSyntaxError) {
        for depth in path.indices {
            let parent = Array(path[..<depth])
            let prefix = Array(path[...depth])
            if let entry = tables[parent]?.table[path[depth]] {
                let what = if case .table = entry.value { "an inline table" } else { "a value" }
                throw error(
                    line,
                    "cannot open \(Self.header(path)): \(Self.name(prefix)) is already \(what), set at line \(entry.line)"
                )
            }
            if tables[prefix] == nil {
                tables[prefix] = PendingTable(table: TOMLTable(isImplied: true), line: line, hasHeader: false)
                tables[parent]?.children.append(path[depth])
            }
        }
        if let existing = tables[path], existing.hasHeader {
            throw error(line, "duplicate table \(Self.header(path)); it is already opened at line \(existing.line)")
        }
        tables[path]?.hasHeader = true
        tables[path]?.line = line
        tables[path]?.table.isImplied = false
        current = path
    }

    /// Adds `key = value`, written on `line`, to the table opened last.
    mutating func insert(_ key: String, _ value: TOMLValue, line: Int) throws(TOMLSyntaxError) {
        if let existing = tables[current]?.table[key] {
            throw error(line, "duplicate key \(TOMLValue.key(key)); it is already set at line \(existing.line)")
        }
        if let table = tables[current + [key]] {
            throw error(
                line,
                "\(TOMLValue.key(key)) is already a table, \(Self.header(current + [key])) at line \(table.line)"
            )
        }
        tables[current]?.table.append(TOMLEntry(key: key, value: value, line: line))
    }

    /// The root table, with every sub-table in place.
    func finish() -> TOMLTable { assemble([]) }

    private func assemble(_ path: [String]) -> TOMLTable {
        guard let pending = tables[path] else { return TOMLTable() }
        var table = pending.table
        for child in pending.children {
            let childPath = path + [child]
            let line = tables[childPath]?.line ?? pending.line
            table.append(TOMLEntry(key: child, value: .table(assemble(childPath)), line: line))
        }
        return table
    }

    private func error(_ line: Int, _ message: String) -> TOMLSyntaxError {
        TOMLSyntaxError(file: fileName, line: line, message: message)
    }

    private static func name(_ path: [String]) -> String { path.map(TOMLValue.key).joined(separator: ".") }

    private static func header(_ path: [String]) -> String { "[\(name(path))]" }
}
