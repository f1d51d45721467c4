/// Assembles the tables of a ``TOMLDocument`` as the parser meets headers and keys, and refuses what TOML
/// forbids: a key or a table defined twice, a table over a key that holds a value, a header over a table that
/// dotted keys defined, and dotted keys into a table that a header defined.
///
/// Its methods throw a ``TOMLRefusal``, to which the parser adds the position of the header or key.
struct TOMLDocumentBuilder {
    private let root = TOMLTableNode(origin: .root, line: 1)
    private var current: TOMLTableNode
    private var currentPath: [String] = []

    init() {
        current = root
    }

    /// The root table, with every sub-table in place.
    func finish() -> TOMLTable { root.table() }

    /// Makes `[path]`, written on `line`, the table that the following keys go into.
    mutating func openTable(_ path: [String], line: Int) throws(TOMLRefusal) {
        let parent = try parentTable(of: path, header: "[\(Self.name(path))]", line: line)
        let key = path[path.count - 1]
        switch parent[key] {
        case nil:
            let table = TOMLTableNode(origin: .header, line: line)
            parent[key] = .table(table)
            current = table
        case .table(let table) where table.origin == .implied:
            table.origin = .header
            table.line = line
            current = table
        case .table(let table) where table.origin == .dotted:
            throw TOMLRefusal(
                "cannot open [\(Self.name(path))]: dotted keys already defined this table at line "
                    + "\(table.line); add its keys there, or only sub-tables with headers"
            )
        case .table(let table):
            throw TOMLRefusal("duplicate table [\(Self.name(path))]; it is already opened at line \(table.line)")
        case .tables(_, let firstLine):
            throw TOMLRefusal(
                "cannot open [\(Self.name(path))]: it is already an array of tables, [[\(Self.name(path))]] "
                    + "at line \(firstLine)"
            )
        case .value(let value, let valueLine):
            throw TOMLRefusal(Self.occupied("cannot open [\(Self.name(path))]", path, value, valueLine))
        }
        currentPath = path
    }

    /// Adds a table to the array of tables `[[path]]`, written on `line`, and makes it the table that the
    /// following keys go into.
    mutating func openArrayTable(_ path: [String], line: Int) throws(TOMLRefusal) {
        let parent = try parentTable(of: path, header: "[[\(Self.name(path))]]", line: line)
        let key = path[path.count - 1]
        let table = TOMLTableNode(origin: .arrayElement, line: line)
        switch parent[key] {
        case nil:
            parent[key] = .tables([table], line: line)
        case .tables(let tables, let firstLine):
            parent[key] = .tables(tables + [table], line: firstLine)
        case .table(let existing):
            throw TOMLRefusal(
                "cannot open [[\(Self.name(path))]]: it is already a table, defined at line "
                    + "\(existing.line); an array of tables is only ever opened with [[...]]"
            )
        case .value(let value, let valueLine):
            throw TOMLRefusal(Self.occupied("cannot open [[\(Self.name(path))]]", path, value, valueLine))
        }
        current = table
        currentPath = path
    }

    /// Adds `path = value`, written on `line`, to the table opened last.
    func insert(_ path: [String], _ value: TOMLValue, line: Int) throws(TOMLRefusal) {
        try Self.insert(path, value, line: line, into: current, at: currentPath)
    }

    /// Adds `path = value`, written on `line`, to `table`, which is at `tablePath` in the document; creates
    /// the tables of a dotted key.
    static func insert(
        _ path: [String],
        _ value: TOMLValue,
        line: Int,
        into table: TOMLTableNode,
        at tablePath: [String]
    ) throws(TOMLRefusal) {
        var table = table
        for (depth, key) in path.dropLast().enumerated() {
            let prefix = tablePath + path[...depth]
            switch table[key] {
            case nil:
                let child = TOMLTableNode(origin: .dotted, line: line)
                table[key] = .table(child)
                table = child
            case .table(let child) where child.origin == .dotted:
                table = child
            case .table(let child):
                throw TOMLRefusal(
                    "cannot set \(name(path)) with a dotted key: [\(name(prefix))] is a table of its own, "
                        + "opened at line \(child.line); set \(name(Array(path[(depth + 1)...]))) under its header"
                )
            case .tables(_, let firstLine):
                throw TOMLRefusal(
                    "cannot set \(name(path)) with a dotted key: \(name(prefix)) is an array of tables, "
                        + "[[\(name(prefix))]] at line \(firstLine)"
                )
            case .value(let existing, let existingLine):
                throw TOMLRefusal(occupied("cannot set \(name(path))", prefix, existing, existingLine))
            }
        }
        let key = path[path.count - 1]
        switch table[key] {
        case nil:
            table[key] = .value(value, line: line)
        case .value(_, let existingLine):
            throw TOMLRefusal("duplicate key \(name(path)); it is already set at line \(existingLine)")
        case .table(let existing):
            throw TOMLRefusal(
                "\(name(path)) is already a table, [\(name(tablePath + path))] at line \(existing.line)"
            )
        case .tables(_, let firstLine):
            throw TOMLRefusal(
                "\(name(path)) is already an array of tables, [[\(name(tablePath + path))]] at line "
                    + "\(firstLine)"
            )
        }
    }

    /// The table that holds the last part of `path`, creating the implied tables on the way; an array of
    /// tables on the way stands for its last table.
    private func parentTable(of path: [String], header: String, line: Int) throws(TOMLRefusal) -> TOMLTableNode {
        var table = root
        for (depth, key) in path.dropLast().enumerated() {
            switch table[key] {
            case nil:
                let child = TOMLTableNode(origin: .implied, line: line)
                table[key] = .table(child)
                table = child
            case .table(let child):
                table = child
            case .tables(let tables, _):
                table = tables[tables.count - 1]
            case .value(let value, let valueLine):
                throw TOMLRefusal(Self.occupied("cannot open \(header)", Array(path[...depth]), value, valueLine))
            }
        }
        return table
    }

    /// `cannot open [a.b]: a is already a value, set at line 3`, naming an inline table or an array as such.
    private static func occupied(_ what: String, _ path: [String], _ value: TOMLValue, _ line: Int) -> String {
        let kind =
            switch value.kind {
            case .table: "an inline table"
            case .array: "an array"
            default: "a value"
            }
        return "\(what): \(name(path)) is already \(kind), set at line \(line)"
    }

    static func name(_ path: [String]) -> String { path.map(TOMLValue.key).joined(separator: ".") }
}
