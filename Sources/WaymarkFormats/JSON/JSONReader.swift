/// A strict, streaming JSON reader (RFC 8259) over UTF-8 bytes, with the position of every value.
///
/// The caller pulls values in document order and keeps only what it needs, so reading allocates nothing per
/// value but the strings asked for:
///
/// ```swift
/// var reader = try JSONReader(bytes)
/// var radius: Double?
/// try reader.beginObject()
/// while let key = try reader.nextKey() {
///     if key == "radius", try reader.peek() == .number { radius = try reader.readNumber() }
/// }
/// try reader.finish()
/// ```
///
/// A value that ``nextKey()`` or ``nextElement()`` announced and the caller did not read is skipped, checked all
/// the same. Everything RFC 8259 forbids is refused with a ``JSONReaderError``: trailing commas, comments, single
/// quotes, leading zeros, `NaN`, control characters and invalid UTF-8 in strings, lone surrogates in `\u` escapes,
/// and anything after the top-level value. So is text beyond the ``JSONLimits``. A UTF-8 byte order mark is
/// skipped.
///
/// A key given twice in one object is announced twice: RFC 8259 says only that names *should* be unique, and
/// what a repeat means (an error, or the last one wins) is for the caller, which knows what the object is and can
/// say so: `duplicate key "name" in the properties of feature 12`.
///
/// After an error the reader is in no defined state: do not read on.
public struct JSONReader: Sendable {
    /// The text, byte order mark included.
    let bytes: [UInt8]
    let limits: JSONLimits
    /// Offset of the next byte to read.
    var index: Int
    private var line = 1
    /// Offset of the first byte of ``line``.
    private var lineStart: Int
    /// The innermost open array or object, when ``depth`` > 0; the others, outermost first, in ``outerFrames``.
    private var frame = Frame(isObject: false, opening: TextPosition(line: 1, column: 1))
    private var outerFrames: [Frame] = []
    /// How many arrays and objects are open around ``index``.
    private var depth = 0
    /// Decoded bytes of the last string with escapes.
    var scratch: [UInt8] = []

    private struct Frame: Sendable {
        var isObject: Bool
        var opening: TextPosition
        /// Elements or members announced so far.
        var count = 0
        /// Where the value last announced starts, to see whether the caller read it.
        var valueStart = 0
    }

    /// Starts reading `bytes` at the top-level value.
    ///
    /// - Throws: ``JSONReaderError`` when `bytes` is longer than ``JSONLimits/maximumBytes`` or starts with a
    ///   UTF-16 byte order mark.
    public init(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONReaderError) {
        let start = TextPosition(line: 1, column: 1)
        guard bytes.count <= limits.maximumBytes else {
            throw JSONReaderError(
                position: start,
                message: "the text is \(bytes.count) bytes long; at most \(limits.maximumBytes) are read"
            )
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw JSONReaderError(position: start, message: "the text is UTF-16; convert it to UTF-8")
        }
        self.bytes = bytes
        self.limits = limits
        self.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        self.lineStart = index
    }

    /// Where the key that ``nextKey()`` returned last starts, at its opening quote: what a message about the key,
    /// such as one given twice, points at.
    public private(set) var keyPosition = TextPosition(line: 1, column: 1)

    /// Where the next byte to read is; after ``peek()``, ``nextKey()`` or ``nextElement()``, where the next value
    /// starts.
    public var position: TextPosition { TextPosition(line: line, column: index - lineStart + 1) }

    /// The kind of the next value, from its first byte, without reading it.
    ///
    /// - Throws: ``JSONReaderError`` when the text ends or no value can start there.
    public mutating func peek() throws(JSONReaderError) -> JSONKind {
        skipWhitespace()
        guard index < bytes.count else { throw error("the text ends where a value is expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default: throw error("expected a value, found \(describeByte(at: index))")
        }
    }

    /// Checks that nothing but whitespace follows the top-level value.
    public mutating func finish() throws(JSONReaderError) {
        precondition(depth == 0, "finish() inside an array or object")
        skipWhitespace()
        guard index == bytes.count else {
            throw error("unexpected \(describeByte(at: index)) after the end of the JSON value")
        }
    }

    // MARK: - Arrays and objects

    /// Reads the `[` of an array; then ``nextElement()`` announces each element.
    public mutating func beginArray() throws(JSONReaderError) {
        try open(isObject: false)
    }

    /// The 0-based index of the next element of the innermost array, positioned at that element; nil after the
    /// array's `]`, which it reads. The element last announced is skipped if the caller did not read it.
    public mutating func nextElement() throws(JSONReaderError) -> Int? {
        precondition(depth > 0 && !frame.isObject, "nextElement() outside an array")
        guard try advance(closing: UInt8(ascii: "]"), after: "an array element") else { return nil }
        return frame.count - 1
    }

    /// Reads the `{` of an object; then ``nextKey()`` announces each member.
    public mutating func beginObject() throws(JSONReaderError) {
        try open(isObject: true)
    }

    /// The key of the next member of the innermost object, positioned at its value; nil after the object's `}`,
    /// which it reads. The value last announced is skipped if the caller did not read it. A key given twice in
    /// the object is announced twice.
    public mutating func nextKey() throws(JSONReaderError) -> String? {
        precondition(depth > 0 && frame.isObject, "nextKey() outside an object")
        guard try advance(closing: UInt8(ascii: "}"), after: "a member") else { return nil }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key in double quotes, found \(describeByte(at: index))")
        }
        keyPosition = position
        let key = try readString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected : after the key \(JSONText.quoted(key)), found \(describeByte(at: index))")
        }
        index += 1
        skipWhitespace()
        frame.valueStart = index
        return key
    }

    /// Reads any value, checking it as closely as the other reads do.
    public mutating func skipValue() throws(JSONReaderError) {
        switch try peek() {
        case .null: try readNull()
        case .boolean: _ = try readBoolean()
        case .number: try scanNumber(converting: false)
        case .string: try scanString(decoding: false)
        case .array:
            try beginArray()
            while try nextElement() != nil { try skipValue() }
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        }
    }

    private mutating func open(isObject: Bool) throws(JSONReaderError) {
        let kind: JSONKind = isObject ? .object : .array
        guard try peek() == kind else { throw error("expected \(kind), found \(describeByte(at: index))") }
        guard depth < limits.maximumDepth else {
            throw error("arrays and objects are nested more than \(limits.maximumDepth) deep")
        }
        let opening = position
        index += 1
        if depth > 0 { outerFrames.append(frame) }
        frame = Frame(isObject: isObject, opening: opening)
        depth += 1
    }

    private mutating func close() {
        depth -= 1
        if depth > 0 { frame = outerFrames.removeLast() }
    }

    /// Moves past the value last announced and its separator: true at the start of another value, false after
    /// the closing bracket, when the frame is gone.
    private mutating func advance(closing: UInt8, after what: String) throws(JSONReaderError) -> Bool {
        if frame.count > 0 && index == frame.valueStart {
            try skipValue()
        }
        skipWhitespace()
        guard index < bytes.count else {
            let kind = frame.isObject ? "object" : "array"
            throw JSONReaderError(
                position: frame.opening,
                message: "the \(kind) is not closed: the text ends before its \(Character(Unicode.Scalar(closing)))"
            )
        }
        let byte = bytes[index]
        if byte == closing {
            index += 1
            close()
            return false
        }
        if frame.count > 0 {
            guard byte == UInt8(ascii: ",") else {
                let expected = "expected , or \(Character(Unicode.Scalar(closing))) after \(what)"
                throw error("\(expected), found \(describeByte(at: index))")
            }
            index += 1
            skipWhitespace()
        }
        frame.count += 1
        frame.valueStart = index
        return true
    }

    // MARK: - Literals

    /// Reads `null`.
    public mutating func readNull() throws(JSONReaderError) {
        guard try peek() == .null else { throw error("expected null, found \(describeByte(at: index))") }
        try literal("null")
    }

    /// Reads `true` or `false`.
    public mutating func readBoolean() throws(JSONReaderError) -> Bool {
        guard try peek() == .boolean else {
            throw error("expected true or false, found \(describeByte(at: index))")
        }
        if bytes[index] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    private mutating func literal(_ word: StaticString) throws(JSONReaderError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { word in
            index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(word)
        }
        guard matches else { throw error("expected \(word)") }
        index += count
    }

    // MARK: - Positions and messages

    mutating func skipWhitespace() {
        guard index < bytes.count, bytes[index] <= UInt8(ascii: " ") else { return }
        // The most common whitespace by far: one space after a comma or colon.
        if bytes[index] == UInt8(ascii: " ") && (index + 1 == bytes.count || bytes[index + 1] > UInt8(ascii: " ")) {
            index += 1
            return
        }
        var offset = index
        var line = self.line
        var lineStart = self.lineStart
        bytes.withUnsafeBufferPointer { bytes in
            scan: while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"):
                    offset += 1
                case UInt8(ascii: "\n"):
                    offset += 1
                    line += 1
                    lineStart = offset
                case UInt8(ascii: "\r"):
                    offset += 1
                    if offset < bytes.count && bytes[offset] == UInt8(ascii: "\n") { offset += 1 }
                    line += 1
                    lineStart = offset
                default:
                    break scan
                }
            }
        }
        index = offset
        self.line = line
        self.lineStart = lineStart
    }

    /// The offset in the text of the next byte to read; with ``text(from:)``, it gives a value as written.
    public var offset: Int { index }

    /// The bytes not read yet, from ``offset`` on, to look ahead without reading.
    public var unreadBytes: ArraySlice<UInt8> { bytes[index...] }

    /// The text from `offset` to ``offset``, as written: `-12.50e3` after reading a number that started at
    /// `offset`.
    public func text(from offset: Int) -> String {
        String(decoding: bytes[offset..<index], as: UTF8.self)
    }

    /// An error at the byte at ``index``.
    func error(_ message: String) -> JSONReaderError {
        JSONReaderError(position: position, message: message)
    }

    /// The byte at `offset` for a message: `"x"` (but `'"'`), `“ (U+201C)` for a character beyond ASCII,
    /// `byte 0xFF` when it does not start valid UTF-8, or `the end of the text`.
    func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""):
            return "'\"'"
        case 0x21...0x7E:
            return "\"\(Character(Unicode.Scalar(byte)))\""
        case 0..<0x80:
            return "U+\(byte.hexadecimal(digits: 4))"
        default:
            let end = Self.endOfUTF8Sequence(in: bytes, at: offset)
            guard end > offset, let scalar = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first
            else {
                return "byte 0x\(byte.hexadecimal(digits: 2))"
            }
            return "\(Character(scalar)) (U+\(scalar.value.hexadecimal(digits: 4)))"
        }
    }

}
