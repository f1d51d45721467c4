extension TOMLParser {
    /// Reads a basic string, `"..."`, with its escapes.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard let byte = peek(), byte != .lineFeed, byte != .carriageReturn || peek(1) != .lineFeed else {
                throw failure("unterminated string: the closing \" is missing")
            }
            if byte.isTOMLControl {
                throw failure("control character \(describeCurrent()) in a string; write it as an escape such as \\t")
            }
            index += 1
            switch byte {
            case .quote:
                return String(decoding: buffer, as: UTF8.self)
            case .backslash:
                if peek() == .space || peek() == .tab || peek() == .lineFeed || peek() == .carriageReturn {
                    throw failure(
                        "a backslash at the end of a line continues only a multi-line string (\"\"\"...\"\"\"); "
                            + "write \\\\ for a backslash"
                    )
                }
                try parseEscape(into: &buffer)
            default:
                buffer.append(byte)
            }
        }
    }

    /// Reads a literal string, `'...'`, which has no escapes.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        index += 1
        let start = index
        while true {
            guard let byte = peek(), byte != .lineFeed, byte != .carriageReturn || peek(1) != .lineFeed else {
                throw failure("unterminated string: the closing ' is missing")
            }
            if byte == .apostrophe {
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            }
            if byte.isTOMLControl {
                throw failure("control character \(describeCurrent()) in a literal string")
            }
            index += 1
        }
    }

    /// Reads a multi-line string: basic, `"""..."""`, with its escapes and line-ending backslashes, when
    /// `delimiter` is `"`; literal, `'''...'''`, without escapes, when it is `'`.
    mutating func parseMultilineString(delimiter: UInt8) throws(TOMLSyntaxError) -> String {
        let isBasic = delimiter == .quote
        let closing = isBasic ? "\"\"\"" : "'''"
        let start = position
        index += 3
        try skipNewlineAfterOpening()
        var buffer: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw failure("unterminated multi-line string: the closing \(closing) of line \(start.line) is missing")
            }
            switch byte {
            case delimiter where peek(1) == delimiter && peek(2) == delimiter:
                let count = countRun(of: delimiter)
                guard count <= 5 else {
                    throw failure(
                        "too many \(isBasic ? "quotes" : "apostrophes"): a multi-line string ends with \(closing) "
                            + "and may hold at most two more"
                    )
                }
                buffer.append(contentsOf: repeatElement(delimiter, count: count - 3))
                index += count
                return String(decoding: buffer, as: UTF8.self)
            case .backslash where isBasic:
                index += 1
                if try skipLineEndingBackslash() { continue }
                try parseEscape(into: &buffer)
            case .lineFeed, .carriageReturn:
                try appendNewline(to: &buffer)
            default:
                if byte.isTOMLControl {
                    throw failure(
                        isBasic
                            ? "control character \(describeCurrent()) in a string; write it as an escape such as \\t"
                            : "control character \(describeCurrent()) in a literal string"
                    )
                }
                buffer.append(byte)
                index += 1
            }
        }
    }

    /// A line end right after the opening delimiter is not part of a multi-line string.
    private mutating func skipNewlineAfterOpening() throws(TOMLSyntaxError) {
        if peek() == .lineFeed || peek() == .carriageReturn {
            try consumeNewline()
        }
    }

    /// Appends the line end at the current position, as written (LF or CR LF).
    private mutating func appendNewline(to buffer: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = index
        try consumeNewline()
        buffer.append(contentsOf: bytes[start..<index])
    }

    /// After a backslash in a multi-line basic string: if only spaces follow it on its line, skips them, the
    /// line end and every space and line end after it, and returns true.
    private mutating func skipLineEndingBackslash() throws(TOMLSyntaxError) -> Bool {
        var offset = 0
        while peek(offset) == .space || peek(offset) == .tab {
            offset += 1
        }
        guard peek(offset) == .lineFeed || peek(offset) == .carriageReturn else { return false }
        index += offset
        try skipSpacesCommentsAndNewlines(comments: false)
        return true
    }

    private func countRun(of byte: UInt8) -> Int {
        var count = 0
        while peek(count) == byte {
            count += 1
        }
        return count
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(TOMLSyntaxError) {
        guard let byte = peek() else {
            throw failure("unterminated string: the closing \" is missing")
        }
        let replacement: UInt8? =
            switch byte {
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "r"): 0x0D
            case .quote, .backslash: byte
            default: nil
            }
        if let replacement {
            index += 1
            buffer.append(replacement)
            return
        }
        let digitCount = byte == UInt8(ascii: "u") ? 4 : byte == UInt8(ascii: "U") ? 8 : 0
        guard digitCount > 0 else {
            let what =
                byte.isTOMLControl || byte == .tab || byte >= 0x80
                ? "\\ followed by \(describeCurrent())" : "\\\(describeCurrent(quoted: false))"
            throw failure(
                "invalid escape \(what) in a string; the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and "
                    + "\\UXXXXXXXX"
            )
        }
        index += 1
        var value: UInt32 = 0
        for _ in 0..<digitCount {
            guard let byte = peek(), let digit = byte.hexadecimalDigitValue else {
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
}
