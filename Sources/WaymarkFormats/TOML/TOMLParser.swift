/// Reads TOML text byte by byte for ``TOMLDocument``, counting lines and columns as it goes.
///
/// This file reads the lines of a document: headers, keys and key/value pairs. `TOMLParser+Strings.swift`
/// reads strings, `TOMLParser+Values.swift` the other values, `TOMLParser+Numbers.swift` numbers, dates and
/// times, and `TOMLParser+Text.swift` spaces, comments, line ends and the positions in messages.
struct TOMLParser {
    /// The most parts a dotted key may have, and the deepest values may nest: far beyond any real file, low
    /// enough that hostile input cannot exhaust the stack.
    static let maximumDepth = 32

    let bytes: [UInt8]
    let fileName: String
    var index = 0
    var line = 1
    /// The offset of the first byte of ``line``.
    var lineStart = 0
    private var builder = TOMLDocumentBuilder()

    init(bytes: [UInt8], fileName: String) {
        self.bytes = bytes
        self.fileName = fileName
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    /// Reads the whole text and returns its root table.
    mutating func parseDocument() throws(TOMLSyntaxError) -> TOMLTable {
        while let byte = peek() {
            switch byte {
            case .space, .tab:
                index += 1
            case .lineFeed, .carriageReturn:
                try consumeNewline()
            case .hash:
                try skipComment()
            case .openBracket:
                try parseHeader()
                try expectEndOfLine(after: "the table header")
            default:
                try parseKeyValue()
                try expectEndOfLine(after: "the value")
            }
        }
        return builder.finish()
    }

    // MARK: Lines

    private mutating func parseHeader() throws(TOMLSyntaxError) {
        let start = position
        index += 1
        let isArray = peek() == .openBracket
        if isArray {
            index += 1
        }
        skipSpaces()
        let path = try parseKey()
        skipSpaces()
        let closing = isArray ? "]]" : "]"
        guard peek() == .closeBracket, !isArray || peek(1) == .closeBracket else {
            let header = isArray ? "array of tables" : "table header"
            throw failure("expected \"\(closing)\" to close the \(header), found \(describeCurrent())")
        }
        index += closing.utf8.count
        do {
            if isArray {
                try builder.openArrayTable(path, line: start.line)
            } else {
                try builder.openTable(path, line: start.line)
            }
        } catch {
            throw failure(error.message, at: start)
        }
    }

    private mutating func parseKeyValue() throws(TOMLSyntaxError) {
        let start = position
        let (path, value) = try parseKeyAndValue(depth: 0)
        do {
            try builder.insert(path, value, line: start.line)
        } catch {
            throw failure(error.message, at: start)
        }
    }

    /// Reads `key = value`, as written on a line of its own or in an inline table; returns the parts of the key.
    mutating func parseKeyAndValue(depth: Int) throws(TOMLSyntaxError) -> ([String], TOMLValue) {
        let path = try parseKey()
        skipSpaces()
        let key = TOMLDocumentBuilder.name(path)
        guard peek() == .equals else {
            throw failure("expected \"=\" after the key \(key), found \(describeCurrent())")
        }
        index += 1
        skipSpaces()
        if isAtEndOfLine {
            throw failure("missing value after \(key) =")
        }
        return (path, try parseValue(depth: depth))
    }

    /// Reads a key or table name, with its dotted parts: `port`, `"quoted key"`, `sinks.file`.
    private mutating func parseKey() throws(TOMLSyntaxError) -> [String] {
        var parts = [try parseSimpleKey()]
        while true {
            let save = index
            skipSpaces()
            guard peek() == .dot else {
                index = save
                return parts
            }
            index += 1
            skipSpaces()
            parts.append(try parseSimpleKey())
            if parts.count > Self.maximumDepth {
                throw failure("a key may have at most \(Self.maximumDepth) dotted parts")
            }
        }
    }

    private mutating func parseSimpleKey() throws(TOMLSyntaxError) -> String {
        switch peek() {
        case .quote:
            if peek(1) == .quote && peek(2) == .quote {
                throw failure("a key cannot be a multi-line string; write it in \"...\" or '...'")
            }
            return try parseBasicString()
        case .apostrophe:
            if peek(1) == .apostrophe && peek(2) == .apostrophe {
                throw failure("a key cannot be a multi-line string; write it in \"...\" or '...'")
            }
            return try parseLiteralString()
        case let byte? where byte.isBareKeyByte:
            let start = index
            while let byte = peek(), byte.isBareKeyByte {
                index += 1
            }
            if let byte = peek(), byte >= 0x80 {
                throw invalidKeyCharacter()
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        case .equals:
            throw failure("missing key before \"=\"")
        default:
            if isAtEndOfLine {
                throw failure("expected a key, found \(describeCurrent())")
            }
            throw invalidKeyCharacter()
        }
    }

    private func invalidKeyCharacter() -> TOMLSyntaxError {
        failure(
            "invalid character \(describeCurrent()) in a key; bare keys may use letters, digits, \"_\" and \"-\", "
                + "other keys must be in quotes"
        )
    }
}
