/// A table being read: the parser adds keys to it until the document ends, then ``table()`` makes the value.
///
/// Where the table came from decides what may still add to it, as TOML 1.0 says: a `[header]` may define a
/// table that only a longer header implied, but not one defined by a header or by dotted keys; dotted keys
/// may add only to tables that dotted keys created.
final class TOMLTableNode {
    enum Origin {
        /// The top-level table, or the top of an inline table.
        case root
        /// Opened by its own `[header]`.
        case header
        /// Implied by a longer header only: `a` in `[a.b]`.
        case implied
        /// Created by a dotted key: `a` in `a.b = 1`.
        case dotted
        /// One `[[header]]` of an array of tables.
        case arrayElement
    }

    /// What a key of the table holds.
    enum Slot {
        case value(TOMLValue, line: Int)
        case table(TOMLTableNode)
        /// An array of tables; `line` is that of its first `[[header]]`.
        case tables([TOMLTableNode], line: Int)
    }

    var origin: Origin
    /// The line of the header, or of the key, that created the table or defined it.
    var line: Int
    private var keys: [String] = []
    private var slots: [String: Slot] = [:]

    init(origin: Origin, line: Int) {
        self.origin = origin
        self.line = line
    }

    subscript(key: String) -> Slot? {
        get { slots[key] }
        set {
            if slots.updateValue(newValue!, forKey: key) == nil {
                keys.append(key)
            }
        }
    }

    /// The table as a value, its keys in the order they were first written.
    func table() -> TOMLTable {
        var table = TOMLTable(isImplied: origin == .implied)
        for key in keys {
            switch slots[key]! {
            case .value(let value, let line):
                table.append(TOMLEntry(key: key, value: value, line: line))
            case .table(let node):
                table.append(TOMLEntry(key: key, value: .table(node.table()), line: node.line))
            case .tables(let nodes, let line):
                table.append(TOMLEntry(key: key, value: .array(nodes.map { .table($0.table()) }), line: line))
            }
        }
        return table
    }
}
