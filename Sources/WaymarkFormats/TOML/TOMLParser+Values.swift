extension TOMLParser {
    /// Reads the value that starts at the current position; `depth` counts the arrays and inline tables around it.
    mutating func parseValue(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard depth < Self.maximumDepth else {
            throw failure("arrays and inline tables may nest at most \(Self.maximumDepth) deep")
        }
        switch peek() {
        case .quote:
            if peek(1) == .quote && peek(2) == .quote {
                throw failure("multi-line strings (\"\"\") are not supported")
            }
            return .string(try parseBasicString())
        case .apostrophe:
            if peek(1) == .apostrophe && peek(2) == .apostrophe {
                throw failure("multi-line strings (''') are not supported")
            }
            return .string(try parseLiteralString())
        case .openBracket:
            return try parseArray(depth: depth)
        case .openBrace:
            return try parseInlineTable(depth: depth)
        default:
            return try parseBareValue()
        }
    }

    private mutating func parseArray(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        let openingLine = line
        var elements: [TOMLValue] = []
        index += 1
        while true {
            try skipSpacesCommentsAndNewlines()
            if peek() == .closeBracket {
                index += 1
                return .array(elements)
            }
            if peek() == nil {
                throw failure("the array opened at line \(openingLine) is never closed with \"]\"")
            }
            elements.append(try parseValue(depth: depth + 1))
            try skipSpacesCommentsAndNewlines()
            switch peek() {
            case .comma:
                index += 1
            case .closeBracket:
                index += 1
                return .array(elements)
            case nil:
                throw failure("the array opened at line \(openingLine) is never closed with \"]\"")
            default:
                let array = openingLine == line ? "the array" : "the array opened at line \(openingLine)"
                throw failure("expected \",\" or \"]\" in \(array), found \(describeCurrent())")
            }
        }
    }

    private mutating func parseInlineTable(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        var table = TOMLTable()
        index += 1
        skipSpaces()
        if peek() == .closeBrace {
            index += 1
            return .table(table)
        }
        while true {
            skipSpaces()
            let keyLine = line
            let (key, value) = try parseKeyAndValue(depth: depth + 1)
            if let existing = table[key] {
                throw failure("duplicate key \(TOMLValue.key(key)); it is already set at line \(existing.line)")
            }
            table.append(TOMLEntry(key: key, value: value, line: keyLine))
            skipSpaces()
            switch peek() {
            case .comma:
                index += 1
                skipSpaces()
                if peek() == .closeBrace {
                    throw failure("a trailing comma is not allowed in an inline table")
                }
            case .closeBrace:
                index += 1
                return .table(table)
            case nil, .lineFeed, .carriageReturn, .hash:
                throw failure("an inline table must be closed with \"}\" on the line it starts")
            default:
                throw failure("expected \",\" or \"}\" in the inline table, found \(describeCurrent())")
            }
        }
    }

    /// Reads an unquoted value: a boolean, an integer or a float.
    private mutating func parseBareValue() throws(TOMLSyntaxError) -> TOMLValue {
        let start = index
        while let byte = peek(), !Self.endsBareValue(byte) {
            index += 1
        }
        let token = String(decoding: bytes[start..<index], as: UTF8.self)
        switch token {
        case "":
            throw failure("expected a value, found \(describeCurrent())")
        case "true":
            return .boolean(true)
        case "false":
            return .boolean(false)
        case "True", "TRUE", "False", "FALSE":
            throw failure("invalid value \(token); booleans are written true or false")
        case "inf", "+inf":
            return .float(.infinity)
        case "-inf":
            return .float(-.infinity)
        case "nan", "+nan", "-nan":
            return .float(.nan)
        default:
            return try parseNumber(token)
        }
    }

    private static func endsBareValue(_ byte: UInt8) -> Bool {
        switch byte {
        case .space, .tab, .lineFeed, .carriageReturn, .comma, .hash, .closeBracket, .closeBrace: true
        default: isControl(byte)
        }
    }

    // MARK: Numbers

    private func parseNumber(_ token: String) throws(TOMLSyntaxError) -> TOMLValue {
        let isDate = token.contains(":") || token.utf8.prefix(5).elementsEqual("0000-".utf8, by: Self.sameShape)
        if isDate {
            throw failure("dates and times are not supported; write \(token) in quotes if it is text")
        }
        var body = Substring(token)
        let sign = body.first == "-" || body.first == "+" ? String(body.removeFirst()) : ""
        let radixes: [(prefix: String, radix: Int)] = [("0x", 16), ("0o", 8), ("0b", 2)]
        if let (prefix, radix) = radixes.first(where: { body.hasPrefix($0.prefix) }) {
            let digits = body.dropFirst(prefix.count)
            guard sign.isEmpty else {
                throw failure("invalid number \(token): a \(prefix) integer cannot have a sign")
            }
            guard Self.isDigitGroup(digits, radix: radix) else { throw invalidNumber(token) }
            guard let value = Int64(digits.filter { $0 != "_" }, radix: radix) else { throw outOfRange(token) }
            return .integer(value)
        }
        let isFloat = body.contains { $0 == "." || $0 == "e" || $0 == "E" }
        guard isFloat else {
            guard Self.isDigitGroup(body, radix: 10) else { throw invalidNumber(token) }
            try checkNoLeadingZero(body, in: token)
            guard let value = Int64(sign + body.filter { $0 != "_" }) else { throw outOfRange(token) }
            return .integer(value)
        }
        let exponentStart = body.firstIndex(where: { $0 == "e" || $0 == "E" })
        let mantissa = body[..<(exponentStart ?? body.endIndex)]
        let integerPart = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(integerPart.count)
        guard Self.isDigitGroup(integerPart, radix: 10),
            fraction.isEmpty || Self.isDigitGroup(fraction.dropFirst(), radix: 10)
        else { throw invalidNumber(token) }
        if let exponentStart {
            var exponent = body[body.index(after: exponentStart)...]
            if exponent.first == "+" || exponent.first == "-" {
                exponent = exponent.dropFirst()
            }
            guard Self.isDigitGroup(exponent, radix: 10) else { throw invalidNumber(token) }
        }
        try checkNoLeadingZero(integerPart, in: token)
        guard let value = Double(sign + body.filter { $0 != "_" }), value.isFinite else { throw outOfRange(token) }
        return .float(value)
    }

    /// Whether `digits` is one or more ASCII digits of `radix`, with single underscores only between digits.
    private static func isDigitGroup(_ digits: Substring, radix: Int) -> Bool {
        guard let first = digits.first, let last = digits.last, first != "_", last != "_" else { return false }
        return !digits.contains("__")
            && digits.allSatisfy { $0 == "_" || ($0.isASCII && ($0.hexDigitValue ?? radix) < radix) }
    }

    private func checkNoLeadingZero(_ digits: Substring, in token: String) throws(TOMLSyntaxError) {
        if digits.first == "0" && digits.count > 1 {
            throw failure("invalid number \(token): leading zeros are not allowed")
        }
    }

    private func invalidNumber(_ token: String) -> TOMLSyntaxError {
        let hasRadixPrefix = ["0x", "0o", "0b"].contains { token.drop { $0 == "+" || $0 == "-" }.hasPrefix($0) }
        let isText = !hasRadixPrefix && token.contains { $0.isLetter && $0 != "e" && $0 != "E" }
        return failure(
            isText
                ? "invalid value \(token); if it is text, put it in quotes: \(TOMLValue.quoted(token))"
                : "invalid number \(token)"
        )
    }

    private func outOfRange(_ token: String) -> TOMLSyntaxError {
        failure("number \(token) is out of range")
    }

    /// Whether `byte` has the shape of `pattern`: a digit for "0", else the same byte.
    private static func sameShape(_ byte: UInt8, _ pattern: UInt8) -> Bool {
        pattern == UInt8(ascii: "0") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == pattern
    }
}
