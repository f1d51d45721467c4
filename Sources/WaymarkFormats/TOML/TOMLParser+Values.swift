extension TOMLParser {
    /// Reads the value that starts at the current position; `depth` counts the arrays and inline tables around it.
    mutating func parseValue(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard depth < Self.maximumDepth else {
            throw failure("arrays and inline tables may nest at most \(Self.maximumDepth) deep")
        }
        switch peek() {
        case .quote:
            if peek(1) == .quote && peek(2) == .quote {
                return .string(try parseMultilineString(delimiter: .quote))
            }
            return .string(try parseBasicString())
        case .apostrophe:
            if peek(1) == .apostrophe && peek(2) == .apostrophe {
                return .string(try parseMultilineString(delimiter: .apostrophe))
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

    /// Reads `{ key = value, ... }` on one line; dotted keys make tables within it, and nothing can add to it
    /// once it is closed.
    private mutating func parseInlineTable(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        let table = TOMLTableNode(origin: .root, line: line)
        index += 1
        skipSpaces()
        if peek() == .closeBrace {
            index += 1
            return .table(table.table())
        }
        while true {
            skipSpaces()
            let start = position
            let (path, value) = try parseKeyAndValue(depth: depth + 1)
            do {
                try TOMLDocumentBuilder.insert(path, value, line: start.line, into: table, at: [])
            } catch {
                throw failure(error.message, at: start)
            }
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
                return .table(table.table())
            case nil, .lineFeed, .carriageReturn, .hash:
                throw failure("an inline table must be closed with \"}\" on the line it starts")
            default:
                throw failure("expected \",\" or \"}\" in the inline table, found \(describeCurrent())")
            }
        }
    }

    /// Reads an unquoted value: a boolean, a number, a date or a time.
    private mutating func parseBareValue() throws(TOMLSyntaxError) -> TOMLValue {
        let start = position
        let startIndex = index
        while let byte = peek(), !Self.endsBareValue(byte) {
            index += 1
        }
        var token = bytes[startIndex..<index]
        if Self.isDateShaped(token), token.count == 10, peek() == .space, peek(1)?.isDigit == true,
            peek(2)?.isDigit == true, peek(3) == UInt8(ascii: ":")
        {
            // `1979-05-27 07:32:00`: a space in place of the T.
            index += 1
            while let byte = peek(), !Self.endsBareValue(byte) {
                index += 1
            }
            token = bytes[startIndex..<index]
        }
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "":
            throw failure("expected a value, found \(describeCurrent())")
        case "true":
            return .boolean(true)
        case "false":
            return .boolean(false)
        case "True", "TRUE", "False", "FALSE":
            throw failure("invalid value \(text); booleans are written true or false", at: start)
        case "inf", "+inf":
            return .float(.infinity)
        case "-inf":
            return .float(-.infinity)
        case "nan", "+nan", "-nan":
            return .float(.nan)
        default:
            do {
                if Self.isDateShaped(token) || Self.isTimeShaped(token) {
                    return .dateTime(try Self.parseDateTime(token))
                }
                return try Self.parseNumber(text)
            } catch {
                throw failure(error.message, at: start)
            }
        }
    }

    private static func endsBareValue(_ byte: UInt8) -> Bool {
        switch byte {
        case .space, .tab, .lineFeed, .carriageReturn, .comma, .hash, .closeBracket, .closeBrace: true
        default: byte.isTOMLControl
        }
    }

    /// Whether `token` starts as a date does: four digits and a hyphen.
    private static func isDateShaped(_ token: ArraySlice<UInt8>) -> Bool {
        token.count >= 5 && token.prefix(4).allSatisfy(\.isDigit) && token.dropFirst(4).first == UInt8(ascii: "-")
    }

    /// Whether `token` starts as a time does: two digits and a colon.
    private static func isTimeShaped(_ token: ArraySlice<UInt8>) -> Bool {
        token.count >= 3 && token.prefix(2).allSatisfy(\.isDigit) && token.dropFirst(2).first == UInt8(ascii: ":")
    }
}
