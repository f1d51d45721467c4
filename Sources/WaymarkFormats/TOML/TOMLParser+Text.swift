extension TOMLParser {
    /// A place in the text, for messages.
    struct Position {
        var line: Int
        var column: Int
    }

    /// Where the next byte to read is.
    var position: Position { Position(line: line, column: index - lineStart + 1) }

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

    /// Skips spaces, line ends and, unless `comments` is false, comments: what may stand between the elements
    /// of an array.
    mutating func skipSpacesCommentsAndNewlines(comments: Bool = true) throws(TOMLSyntaxError) {
        while let byte = peek() {
            switch byte {
            case .space, .tab: index += 1
            case .lineFeed, .carriageReturn: try consumeNewline()
            case .hash where comments: try skipComment()
            default: return
            }
        }
    }

    /// Reads a line end, LF or CR LF, at the current position.
    mutating func consumeNewline() throws(TOMLSyntaxError) {
        if peek() == .carriageReturn {
            guard peek(1) == .lineFeed else {
                throw failure("a carriage return must be followed by a line feed")
            }
            index += 1
        }
        index += 1
        line += 1
        lineStart = index
    }

    mutating func skipComment() throws(TOMLSyntaxError) {
        while let byte = peek(), byte != .lineFeed, !(byte == .carriageReturn && peek(1) == .lineFeed) {
            if byte.isTOMLControl {
                throw failure("control character \(describeCurrent()) in a comment")
            }
            index += 1
        }
    }

    mutating func expectEndOfLine(after what: String) throws(TOMLSyntaxError) {
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

    /// Checks that the text is UTF-8, as TOML requires.
    func checkUTF8() throws(TOMLSyntaxError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var line = 1
        var lineStart = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    lineStart = offset
                }
            case .emptyInput:
                return
            case .error:
                throw TOMLSyntaxError(
                    file: fileName,
                    line: line,
                    column: offset - lineStart + 1,
                    message:
                        "the text is not UTF-8 (byte 0x\(bytes[offset].hexadecimal(digits: 2))); TOML files are UTF-8"
                )
            }
        }
    }

    // MARK: Errors

    /// An error at the current position.
    func failure(_ message: String) -> TOMLSyntaxError {
        failure(message, at: position)
    }

    /// An error at `position`.
    func failure(_ message: String, at position: Position) -> TOMLSyntaxError {
        TOMLSyntaxError(file: fileName, line: position.line, column: position.column, message: message)
    }

    /// The character at the current position, for a message: `"x"`, `U+0007`, `the end of the line`, and a
    /// carriage return not followed by a line feed as `U+000D (a carriage return)`.
    func describeCurrent(quoted: Bool = true) -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte == .lineFeed || (byte == .carriageReturn && peek(1) == .lineFeed) { return "the end of the line" }
        if byte == .carriageReturn { return "U+000D (a carriage return)" }
        if byte.isTOMLControl || byte == .tab {
            return "U+" + byte.hexadecimal(digits: 4)
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
}
