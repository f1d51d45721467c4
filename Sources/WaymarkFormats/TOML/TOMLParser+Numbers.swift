extension TOMLParser {
    /// Reads an integer or a float from a bare value's text.
    static func parseNumber(_ token: String) throws(TOMLRefusal) -> TOMLValue {
        var body = Substring(token)
        let sign = body.first == "-" || body.first == "+" ? String(body.removeFirst()) : ""
        let radixes: [(prefix: String, radix: Int)] = [("0x", 16), ("0o", 8), ("0b", 2)]
        if let (prefix, radix) = radixes.first(where: { body.hasPrefix($0.prefix) }) {
            let digits = body.dropFirst(prefix.count)
            guard sign.isEmpty else {
                throw TOMLRefusal("invalid number \(token): a \(prefix) integer cannot have a sign")
            }
            guard isDigitGroup(digits, radix: radix) else { throw invalidNumber(token) }
            guard let value = Int64(digits.filter { $0 != "_" }, radix: radix) else { throw outOfRange(token) }
            return .integer(value)
        }
        let isFloat = body.contains { $0 == "." || $0 == "e" || $0 == "E" }
        guard isFloat else {
            guard isDigitGroup(body, radix: 10) else { throw invalidNumber(token) }
            try checkNoLeadingZero(body, in: token)
            guard let value = Int64(sign + body.filter { $0 != "_" }) else { throw outOfRange(token) }
            return .integer(value)
        }
        let exponentStart = body.firstIndex(where: { $0 == "e" || $0 == "E" })
        let mantissa = body[..<(exponentStart ?? body.endIndex)]
        let integerPart = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(integerPart.count)
        guard isDigitGroup(integerPart, radix: 10),
            fraction.isEmpty || isDigitGroup(fraction.dropFirst(), radix: 10)
        else { throw invalidNumber(token) }
        if let exponentStart {
            var exponent = body[body.index(after: exponentStart)...]
            if exponent.first == "+" || exponent.first == "-" {
                exponent = exponent.dropFirst()
            }
            guard isDigitGroup(exponent, radix: 10) else { throw invalidNumber(token) }
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

    private static func checkNoLeadingZero(_ digits: Substring, in token: String) throws(TOMLRefusal) {
        if digits.first == "0" && digits.count > 1 {
            throw TOMLRefusal("invalid number \(token): leading zeros are not allowed")
        }
    }

    private static func invalidNumber(_ token: String) -> TOMLRefusal {
        let hasRadixPrefix = ["0x", "0o", "0b"].contains { token.drop { $0 == "+" || $0 == "-" }.hasPrefix($0) }
        let isText = !hasRadixPrefix && token.contains { $0.isLetter && $0 != "e" && $0 != "E" }
        return TOMLRefusal(
            isText
                ? "invalid value \(token); if it is text, put it in quotes: \(TOMLValue.quoted(token))"
                : "invalid number \(token)"
        )
    }

    private static func outOfRange(_ token: String) -> TOMLRefusal {
        TOMLRefusal("number \(token) is out of range")
    }
}
