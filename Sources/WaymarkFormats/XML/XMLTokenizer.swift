/// A strict, non-validating XML 1.0 pull tokenizer over UTF-8 bytes.
///
/// It reads what GPX writers produce: the XML declaration, comments, processing instructions, a DOCTYPE
/// (skipped), elements with single- or double-quoted attributes, CDATA sections, the predefined entities and
/// character references. It refuses what is not well-formed (a mismatched or unclosed tag, an unquoted or repeated
/// attribute, an unknown entity, text outside the root element, a second root) with an ``XMLSyntaxError`` that
/// names the line; for something never closed, the line where it was opened.
///
/// Left out on purpose: namespace resolution (see ``XMLName``), DTDs and the entities they declare, UTF-8
/// validation of names and text, normalisation of attribute values and line ends (callers trim what they read),
/// and the ban on `--` inside comments, which real files break.
///
/// Tokens refer to ``bytes`` by range and the tokenizer reuses its buffers, so reading allocates nothing per token.
public struct XMLTokenizer {
    /// The document, byte order mark included.
    public let bytes: [UInt8]
    /// The attributes of the last ``XMLToken/startTag(_:)``, in document order, until the next start tag.
    public private(set) var attributes: [XMLAttribute] = []
    /// Offset of the first byte of the token ``next()`` returned last.
    public private(set) var tokenStart = 0

    private struct OpenElement {
        var name: XMLName
        var tagStart: Int
    }

    private let documentStart: Int
    private var index: Int
    private var openElements: [OpenElement] = []
    private var pendingEnd: XMLName?
    private var hasRoot = false
    private var hasDoctype = false
    private var lines: LineCounter

    /// - Throws: ``XMLSyntaxError`` when the bytes start with a UTF-16 byte order mark.
    public init(_ bytes: [UInt8]) throws(XMLSyntaxError) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw XMLSyntaxError(line: 1, message: "the file is UTF-16; convert it to UTF-8")
        }
        self.bytes = bytes
        self.lines = LineCounter(bytes)
        self.documentStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        self.index = documentStart
    }

    /// The 1-based line of the byte at `offset`; cheapest when asked in document order.
    public mutating func line(at offset: Int) -> Int { lines.line(at: offset) }

    /// Appends the text of a ``XMLToken/text(_:)`` or ``XMLAttribute/value`` to `buffer`, references decoded.
    public func appendDecoded(_ range: Range<Int>, to buffer: inout [UInt8]) {
        XMLReference.appendDecoded(bytes, range, to: &buffer)
    }

    /// The name as written, for messages.
    public func string(_ name: XMLName) -> String { String(decoding: bytes[name.qualified], as: UTF8.self) }

    /// The next token; nil at the end of a well-formed document.
    ///
    /// - Throws: ``XMLSyntaxError`` at the first markup that is not well-formed. Do not call again after that.
    public mutating func next() throws(XMLSyntaxError) -> XMLToken? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .endTag(name)
        }
        while index < bytes.count {
            tokenStart = index
            guard bytes[index] == UInt8(ascii: "<") else {
                if let token = try text() { return token }
                continue
            }
            switch byte(at: index + 1) {
            case UInt8(ascii: "/"):
                return try endTag()
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if let token = try declaration() { return token }
            default:
                return try startTag()
            }
        }
        if let innermost = openElements.last {
            let name = string(innermost.name)
            throw error("<\(name)> is not closed: the file ends before </\(name)>", at: innermost.tagStart)
        }
        guard hasRoot else { throw error("no root element: the file holds no XML element", at: bytes.count) }
        return nil
    }

    // MARK: - Elements

    private mutating func startTag() throws(XMLSyntaxError) -> XMLToken {
        let tagStart = index
        index += 1
        guard let name = scanName() else { throw error("expected an element name after <", at: tagStart) }
        if openElements.isEmpty && hasRoot {
            throw error("second root element <\(string(name))>; a document has one root", at: tagStart)
        }
        attributes.removeAll(keepingCapacity: true)
        while true {
            let spaced = skipWhitespace()
            switch byte(at: index) {
            case nil:
                throw error("<\(string(name)) is not closed by >", at: tagStart)
            case UInt8(ascii: ">"):
                index += 1
                openElements.append(OpenElement(name: name, tagStart: tagStart))
                hasRoot = true
                return .startTag(name)
            case UInt8(ascii: "/"):
                guard byte(at: index + 1) == UInt8(ascii: ">") else {
                    throw error("expected /> to end <\(string(name))", at: index)
                }
                index += 2
                hasRoot = true
                pendingEnd = name
                return .startTag(name)
            case UInt8(ascii: "<"):
                throw error("<\(string(name)) is not closed by >", at: tagStart)
            default:
                guard spaced else {
                    throw error("expected a space before the next attribute of <\(string(name))>", at: index)
                }
                try attribute(of: name)
            }
        }
    }

    private mutating func attribute(of element: XMLName) throws(XMLSyntaxError) {
        let nameStart = index
        guard let name = scanName() else {
            throw error("unexpected \(describe(bytes[index])) in <\(string(element))>", at: index)
        }
        // Built only for a message: a string per attribute would cost more than the scan.
        func context() -> String { "attribute \(string(name)) of <\(string(element))>" }
        skipWhitespace()
        guard byte(at: index) == UInt8(ascii: "=") else { throw error("expected = after \(context())", at: index) }
        index += 1
        skipWhitespace()
        guard let quote = byte(at: index), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("the value of \(context()) must be in quotes", at: index)
        }
        index += 1
        let valueStart = index
        scan: while true {
            switch byte(at: index) {
            case nil:
                throw error("the value of \(context()) has no closing quote", at: nameStart)
            case quote:
                break scan
            case UInt8(ascii: "<"):
                throw error("\"<\" in the value of \(context()); is a closing quote missing?", at: index)
            case UInt8(ascii: "&"):
                try skipReference()
            default:
                index += 1
            }
        }
        let value = valueStart..<index
        index += 1
        for other in attributes where isSame(other.name, as: name) {
            throw error("\(context()) is given twice", at: nameStart)
        }
        attributes.append(XMLAttribute(name: name, value: value))
    }

    private mutating func endTag() throws(XMLSyntaxError) -> XMLToken {
        let tagStart = index
        index += 2
        guard let name = scanName() else { throw error("expected an element name after </", at: tagStart) }
        skipWhitespace()
        guard byte(at: index) == UInt8(ascii: ">") else {
            throw error("expected > to end </\(string(name))", at: index)
        }
        index += 1
        guard let innermost = openElements.last else {
            throw error("unexpected </\(string(name))>: no element is open", at: tagStart)
        }
        guard isSame(name, as: innermost.name) else {
            throw error("expected </\(string(innermost.name))>, found </\(string(name))>", at: tagStart)
        }
        openElements.removeLast()
        return .endTag(name)
    }

    // MARK: - Text

    /// Character data up to the next `<`: a token inside the root element, checked whitespace outside it.
    private mutating func text() throws(XMLSyntaxError) -> XMLToken? {
        let start = index
        var firstContent: Int?
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                break scan
            case UInt8(ascii: "&"):
                firstContent = firstContent ?? index
                try skipReference()
                continue scan
            case UInt8(ascii: ">")
            where index >= start + 2 && bytes[index - 1] == UInt8(ascii: "]") && bytes[index - 2] == UInt8(ascii: "]"):
                throw error("]]> is not allowed in text; write ]]&gt;", at: index)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            default:
                firstContent = firstContent ?? index
            }
            index += 1
        }
        guard openElements.isEmpty else { return .text(start..<index) }
        if let firstContent {
            throw error(hasRoot ? "text after the root element" : "text before the root element", at: firstContent)
        }
        return nil
    }

    private mutating func skipReference() throws(XMLSyntaxError) {
        guard let reference = XMLReference.decode(bytes, at: index) else {
            throw error(XMLReference.problem(in: bytes, at: index), at: index)
        }
        index = reference.end
    }

    // MARK: - Markup that is not content

    /// `<!--`, `<![CDATA[` or `<!DOCTYPE`; returns the CDATA token, skips the others.
    private mutating func declaration() throws(XMLSyntaxError) -> XMLToken? {
        let start = index
        if hasPrefix("<!--") {
            guard let end = find("-->", from: start + 4) else { throw error("comment is not closed by -->", at: start) }
            index = end + 3
            return nil
        }
        if hasPrefix("<![CDATA[") {
            guard !openElements.isEmpty else { throw error("CDATA section outside the root element", at: start) }
            let contentStart = start + 9
            guard let end = find("]]>", from: contentStart) else {
                throw error("CDATA section is not closed by ]]>", at: start)
            }
            index = end + 3
            return .cdata(contentStart..<end)
        }
        if hasPrefix("<!DOCTYPE") {
            try skipDoctype()
            return nil
        }
        throw error("unexpected markup: expected <!--, <![CDATA[ or <!DOCTYPE after <!", at: start)
    }

    /// `<!DOCTYPE …>`, internal subset included; its declarations are not used.
    private mutating func skipDoctype() throws(XMLSyntaxError) {
        let start = index
        guard !hasRoot else { throw error("<!DOCTYPE must come before the root element", at: start) }
        guard !hasDoctype else { throw error("second <!DOCTYPE; a document has at most one", at: start) }
        hasDoctype = true
        index += 9
        var quote: UInt8?
        var subsetDepth = 0
        while let byte = byte(at: index) {
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): subsetDepth += 1
            case UInt8(ascii: "]"): subsetDepth = max(0, subsetDepth - 1)
            case UInt8(ascii: ">") where subsetDepth == 0: return
            default: break
            }
        }
        throw error("<!DOCTYPE is not closed by >", at: start)
    }

    /// `<?target …?>`; the XML declaration `<?xml …?>` only at the very start.
    private mutating func skipProcessingInstruction() throws(XMLSyntaxError) {
        let start = index
        index += 2
        guard let target = scanName() else { throw error("expected a name after <?", at: start) }
        // `xml` in any case is reserved for the declaration; `xml-stylesheet` is an ordinary target.
        let isDeclaration = bytes[target.qualified].lazy.map { $0 | 0x20 }.elementsEqual("xml".utf8)
        if isDeclaration && start != documentStart {
            throw error("the <?xml …?> declaration must be the first thing in the file", at: start)
        }
        guard let end = find("?>", from: index) else {
            throw error("<?\(string(target)) is not closed by ?>", at: start)
        }
        index = end + 2
    }

    // MARK: - Scanning

    /// The name at `index`, which moves past it; nil, with `index` unchanged, when no name starts there.
    private mutating func scanName() -> XMLName? {
        let start = index
        guard let first = byte(at: index), isNameStart(first) else { return nil }
        var localStart = start
        while let byte = byte(at: index), isNameCharacter(byte) {
            index += 1
            if byte == UInt8(ascii: ":") { localStart = index }
        }
        return XMLName(qualified: start..<index, local: localStart..<index)
    }

    /// Whether two names are spelled the same, prefix included.
    private func isSame(_ name: XMLName, as other: XMLName) -> Bool {
        guard name.qualified.count == other.qualified.count else { return false }
        var (index, otherIndex) = (name.qualified.lowerBound, other.qualified.lowerBound)
        while index < name.qualified.upperBound, bytes[index] == bytes[otherIndex] {
            index += 1
            otherIndex += 1
        }
        return index == name.qualified.upperBound
    }

    /// Moves past spaces, tabs and line ends; whether there were any.
    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while let byte = byte(at: index), isWhitespace(byte) { index += 1 }
        return index > start
    }

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
        }
    }

    private func find(_ pattern: StaticString, from start: Int) -> Int? {
        pattern.withUTF8Buffer { pattern in
            guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
            var candidate = start
            while candidate <= bytes.count - pattern.count {
                if bytes[candidate] == first
                    && bytes[candidate..<(candidate + pattern.count)].elementsEqual(pattern)
                {
                    return candidate
                }
                candidate += 1
            }
            return nil
        }
    }

    private mutating func error(_ message: String, at offset: Int) -> XMLSyntaxError {
        XMLSyntaxError(line: lines.line(at: offset), message: message)
    }
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}

/// ASCII letters, `_`, `:`, and any byte of a multi-byte UTF-8 sequence (names are not checked further).
private func isNameStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
        UInt8(ascii: ":"), 0x80...0xFF:
        true
    default:
        false
    }
}

private func isNameCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): true
    default: isNameStart(byte)
    }
}

/// A byte for a message: `"x"` when printable ASCII, else its value.
private func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(String(byte, radix: 16))"
}
