/// Reads TOML text byte by byte for ``TOMLDocument``, counting lines as it goes.
///
/// This file reads the lines of a document: headers, keys, comments and strings;
/// `TOMLParser+Values.swift` reads the values.
struct TOMLParser {
    /// The most parts a dotted table name may have, and the deepest values may nest: far beyond any real
    /// file, low enough that hostile input cannot exhaust the stack.
    static let maximumDepth = 32

    let bytes: [UInt8]
    let fileName: String
    var index = 0
    var line = 1
    private var builder: TOMLDocumentBuilder

    init(text: String, fileName: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
        }
        self.bytes = bytes
        self.fileName = fileName
        self.builder = TOMLDocumentBuilder(fileName: fileName)
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
        let headerLine = line
        index += 1
        if peek() == .openBracket {
            throw failure("arrays of tables ([[...]]) are not supported")
        }
        skipSpaces()
        let path = try parseKey()
        skipSpaces()
        guard peek() == .closeBracket else {
            throw failure("expected \"]\" to close the table header, found \(describeCurrent())")
        }
        index += 1
        try builder.openTable(path, line: headerLine)
    }

    private mutating func parseKeyValue() throws(TOMLSyntaxError) {
        let keyLine = line
        let (key, value) = try parseKeyAndValue()
        try builder.insert(key, value, line: keyLine)
    }

    /// Reads `key = value`, as written on a line of its own or in an inline table.
    mutating func parseKeyAndValue(depth: Int = 0) throws(TOMLSyntaxError) -> (String, TOMLValue) {
        let path = try parseKey()
        guard let key = path.last, path.count == 1 else {
            let table = path.dropLast().map(TOMLValue.key).joined(separator: ".")
            throw failure(
                "dotted keys are not supported; put \(TOMLValue.key(path.last ?? "")) under a [\(table)] header"
            )
        }
        skipSpaces()
        guard peek() == .equals else {
            throw failure("expected \"=\" after the key \(TOMLValue.key(key)), found \(describeCurrent())")
        }
        index += 1
        skipSpaces()
        if isAtEndOfLine {
            throw failure("missing value after \(TOMLValue.key(key)) =")
        }
        return (key, try parseValue(depth: depth))
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
            return try parseBasicString()
        case .apostrophe:
            return try parseLiteralString()
        case let byte? where TOMLValue.isBareKeyByte(byte):
            let start = index
            while let byte = peek(), TOMLValue.isBareKeyByte(byte) {
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

    // MARK: Strings

    /// Reads a basic string, `"..."`, with its escapes.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard let byte = peek(), byte != .lineFeed, byte != .carriageReturn else {
                throw failure("unterminated string: the closing \" is missing")
            }
            if Self.isControl(byte) {
                throw failure("control character \(describeCurrent()) in a string; write it as an escape such as \\t")
            }
            index += 1
            switch byte {
            case .quote:
                return String(decoding: buffer, as: UTF8.self)
            case .backslash:
                try parseEscape(into: &buffer)
            default:
                buffer.append(byte)
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(TOMLSyntaxError) {
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "r"): 0x0D, .quote: .quote, .backslash: .backslash,
        ]
        guard let byte = peek() else {
            throw failure("unterminated string: the closing \" is missing")
        }
        if let replacement = simple[byte] {
            index += 1
            buffer.append(replacement)
            return
        }
        let digitCount = byte == UInt8(ascii: "u") ? 4 : byte == UInt8(ascii: "U") ? 8 : 0
        guard digitCount > 0 else {
            throw failure(
                "invalid escape \\\(describeCurrent(quoted: false)) in a string; "
                    + "the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX"
            )
        }
        index += 1
        var value: UInt32 = 0
        for _ in 0..<digitCount {
            guard let byte = peek(), let digit = Self.hexDigitValue(byte) else {
                throw failure("\\\(digitCount == 4 ? "u" : "U") must be followed by \(digitCount) hexadecimal digits")
            }
            index += 1
            value = value << 4 | UInt32(digit)
        }
        guard let scalar = Unicode.Scalar(value) else {
            let hex = String(value, radix: 16, uppercase: true)
            throw failure("\\\(digitCount == 4 ? "u" : "U")\(hex) is not a Unicode scalar value")
        }
        buffer.append(contentsOf: String(scalar).utf8)
    }

    /// Reads a literal string, `'...'`, which has no escapes.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        index += 1
        let start = index
        while true {
            guard let byte = peek(), byte != .lineFeed, byte != .carriageReturn else {
                throw failure("unterminated string: the closing ' is missing")
            }
            if byte == .apostrophe {
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            }
            if Self.isControl(byte) {
                throw failure("control character \(describeCurrent()) in a literal string")
            }
            index += 1
        }
    }

    // MARK: Spaces, comments and line ends

    func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// Whether the rest of the line holds no value: its end, the end of the text or a comment.
    var isAtEndOfLine: Bool {
        switch peek() {
        case nil, .lineFeed, .carriageReturn, .hash: true
        default: false
        }
    }

    mutating func skipSpaces() {
        while peek() == .space || peek() == .tab {
            index += 1
        }
    }

    /// Skips spaces, comments and line ends, as allowed between the elements of an array.
    mutating func skipSpacesCommentsAndNewlines() throws(TOMLSyntaxError) {
        while let byte = peek() {
            switch byte {
            case .space, .tab: index += 1
            case .lineFeed, .carriageReturn: try consumeNewline()
            case .hash: try skipComment()
            default: return
            }
        }
    }

    private mutating func consumeNewline() throws(TOMLSyntaxError) {
        if peek() == .carriageReturn {
            guard peek(1) == .lineFeed else {
                throw failure("a carriage return must be followed by a line feed")
            }
            index += 1
        }
        index += 1
        line += 1
    }

    private mutating func skipComment() throws(TOMLSyntaxError) {
        while let byte = peek(), byte != .lineFeed, !(byte == .carriageReturn && peek(1) == .lineFeed) {
            if Self.isControl(byte) {
                throw failure("control character \(describeCurrent()) in a comment")
            }
            index += 1
        }
    }

    private mutating func expectEndOfLine(after what: String) throws(TOMLSyntaxError) {
        skipSpaces()
        if peek() == .hash {
            try skipComment()
        }
        guard isAtEndOfLine else {
            throw failure("expected the end of the line after \(what), found \(describeCurrent())")
        }
        if peek() != nil {
            try consumeNewline()
        }
    }

    // MARK: Errors

    /// An error at the current line.
    func failure(_ message: String) -> TOMLSyntaxError {
        TOMLSyntaxError(file: fileName, line: line, message: message)
    }

    /// The character at the current position, for a message: `"x"`, `U+0007`, `the end of the line`.
    func describeCurrent(quoted: Bool = true) -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte == .lineFeed || byte == .carriageReturn { return "the end of the line" }
        if Self.isControl(byte) {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        let length =
            switch byte {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        let character = String(decoding: bytes[index..<min(index + length, bytes.count)], as: UTF8.self)
        guard quoted else { return character }
        return byte == .quote ? "'\"'" : "\"\(character)\""
    }

    /// Whether TOML forbids `byte` unescaped in strings and comments: the ASCII controls but tab.
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != .tab) || byte == 0x7F
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
