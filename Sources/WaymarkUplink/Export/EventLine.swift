import WaymarkCore
import WaymarkFormats

/// One event line of the JSON Lines output (docs/events.md, "Events"), decoded into its top-level members.
///
/// `type`, `seq` and `time` are checked and typed; the other members are kept as they are, numbers as
/// `Double`, for ``number(_:)``, ``string(_:)`` and ``boolean(_:)``. The scalar members of a nested object are
/// kept under the object's key and theirs (a trip's `start_place.name`), and so are those of an object within
/// it (`start_place.address.street`); nested arrays (a trip's `regions_entered`) and objects deeper still are
/// checked and skipped. Keys the reader does not know are kept like any other: a
/// consumer ignores what it does not use.
///
/// Decoding is pure and allocates only the member list and the strings; an exporter decodes millions of lines.
public struct EventLine: Hashable, Sendable {
    /// The event's `type`: `location`, `error`, ...
    public var type: String
    /// The event's per-device sequence number.
    public var seq: UInt64
    /// The event's `time`.
    public var time: Timestamp
    /// The other scalar members, in the order of the line.
    private var members: [Member]

    private struct Member: Hashable, Sendable {
        var key: String
        var value: Value
    }

    private enum Value: Hashable, Sendable {
        case number(Double)
        case string(String)
        case boolean(Bool)
        case null
    }

    /// Decodes one line, without its line break.
    ///
    /// - Throws: ``EventLineError`` when the line is not a JSON object, or `type`, `seq` or `time` is missing or
    ///   not what docs/events.md, "Events" says: its ``EventLineError/column`` points at the problem.
    public init(_ bytes: some Collection<UInt8>) throws(EventLineError) {
        var reader: JSONReader
        do {
            reader = try JSONReader(Array(bytes))
        } catch {
            throw EventLineError(.malformedJSON, error.message, column: error.position.column, cause: error)
        }
        var type: String?
        var seq: UInt64?
        var time: Timestamp?
        var members: [Member] = []
        members.reserveCapacity(16)
        do {
            let kind = try reader.peek()
            guard kind == .object else {
                throw EventLineError(
                    .notAnObject,
                    "an event line is a JSON object, found \(kind)",
                    column: reader.position.column
                )
            }
            try reader.beginObject()
            var keys: [String] = []
            keys.reserveCapacity(16)
            // A bit per ASCII key's length and first byte: an ASCII key whose bit is still clear is new without a
            // comparison. Keys are equal as Swift's strings are, canonically ("\u{212A}" is "K"): once a key
            // beyond ASCII is seen, every key is compared.
            var keyBits: UInt64 = 0
            var allASCII = true
            while let key = try reader.nextKey() {
                allASCII = allASCII && key.utf8.allSatisfy { $0 < 0x80 }
                let bit = UInt64(1) << ((UInt64(key.utf8.count) &* 11 &+ UInt64(key.utf8.first ?? 0)) & 63)
                guard (allASCII && keyBits & bit == 0) || !keys.contains(key) else {
                    throw EventLineError(
                        .malformedJSON,
                        "the key \(JSONText.quoted(key)) is given twice",
                        column: reader.keyPosition.column
                    )
                }
                keyBits |= bit
                keys.append(key)
                let column = reader.position.column
                // Each of the three is looked for until it is found (they come first): the other keys, most of
                // a line, are then compared with none of them.
                if type == nil, key == "type" {
                    guard try reader.peek() == .string else { throw try Self.wrongKind(of: key, in: &reader) }
                    type = try reader.readString()
                } else if seq == nil, key == "seq" {
                    seq = try Self.readSeq(from: &reader)
                } else if time == nil, key == "time" {
                    guard try reader.peek() == .string else { throw try Self.wrongKind(of: key, in: &reader) }
                    let text = try reader.readString()
                    guard let parsed = Timestamp(iso8601: text) else {
                        throw EventLineError(
                            .invalidMember,
                            "\"time\" is \"\(text)\", not an ISO 8601 date-time such as 2029-11-25T16:57:46.000Z",
                            column: column
                        )
                    }
                    time = parsed
                } else {
                    switch try reader.peek() {
                    case .number: members.append(Member(key: key, value: .number(try reader.readNumber())))
                    case .string: members.append(Member(key: key, value: .string(try reader.readString())))
                    case .boolean: members.append(Member(key: key, value: .boolean(try reader.readBoolean())))
                    case .null:
                        try reader.readNull()
                        members.append(Member(key: key, value: .null))
                    case .object: try Self.readMembers(of: key, from: &reader, into: &members)
                    case .array: try reader.skipValue()
                    }
                }
            }
            try reader.finish()
        } catch let error as EventLineError {
            throw error
        } catch let error as JSONReaderError {
            throw EventLineError(.malformedJSON, error.message, column: error.position.column, cause: error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        guard let type else { throw EventLineError(.missingMember, "the event has no \"type\"", column: nil) }
        guard let seq else { throw EventLineError(.missingMember, "the event has no \"seq\"", column: nil) }
        guard let time else { throw EventLineError(.missingMember, "the event has no \"time\"", column: nil) }
        self.type = type
        self.seq = seq
        self.time = time
        self.members = members
    }

    /// Keeps the scalar members of the object `key` starts as `key.member`, and those of its objects as
    /// `key.member.inner` while `depth` (the levels below the line) is 1; skips its arrays and deeper objects.
    private static func readMembers(
        of key: String,
        from reader: inout JSONReader,
        into members: inout [Member],
        depth: Int = 1
    ) throws(JSONReaderError) {
        try reader.beginObject()
        while let member = try reader.nextKey() {
            let name = key + "." + member
            switch try reader.peek() {
            case .number: members.append(Member(key: name, value: .number(try reader.readNumber())))
            case .string: members.append(Member(key: name, value: .string(try reader.readString())))
            case .boolean: members.append(Member(key: name, value: .boolean(try reader.readBoolean())))
            case .null:
                try reader.readNull()
                members.append(Member(key: name, value: .null))
            case .object where depth == 1: try readMembers(of: name, from: &reader, into: &members, depth: 2)
            case .array, .object: try reader.skipValue()
            }
        }
    }

    /// The number `key` holds; nil when it is absent or not a number.
    public func number(_ key: String) -> Double? {
        for member in members where member.key == key {
            if case .number(let value) = member.value { return value }
            return nil
        }
        return nil
    }

    /// The string `key` holds; nil when it is absent or not a string.
    public func string(_ key: String) -> String? {
        for member in members where member.key == key {
            if case .string(let value) = member.value { return value }
            return nil
        }
        return nil
    }

    /// The boolean `key` holds; nil when it is absent or not `true` or `false`.
    public func boolean(_ key: String) -> Bool? {
        for member in members where member.key == key {
            if case .boolean(let value) = member.value { return value }
            return nil
        }
        return nil
    }

    /// `lat` and `lon`, when both are numbers. Not range-checked: the writers skip what they cannot write.
    public var coordinate: Coordinate? {
        guard let latitude = number("lat"), let longitude = number("lon") else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `seq` as an exact whole number: read from its text, since a `Double` loses digits beyond 2^53.
    private static func readSeq(from reader: inout JSONReader) throws -> UInt64 {
        let column = reader.position.column
        guard try reader.peek() == .number else { throw try wrongKind(of: "seq", in: &reader) }
        let text = try reader.readNumberText()
        guard let value = UInt64(text) else {
            throw EventLineError(.invalidMember, "\"seq\" is \(text), not a whole number 0 or more", column: column)
        }
        return value
    }

    private static func wrongKind(of key: String, in reader: inout JSONReader) throws -> EventLineError {
        let expected = key == "seq" ? "a number" : "a string"
        return EventLineError(
            .invalidMember,
            "\"\(key)\" is \(try reader.peek()), expected \(expected)",
            column: reader.position.column
        )
    }
}

/// A line that ``EventLine`` cannot decode: what is wrong, and the column (in bytes, from 1) where.
///
/// Its ``description`` reads `column 17: expected , or } after a member, found ]`; a caller that reads a file
/// puts the file name and line number in front.
public struct EventLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem; codes can be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case malformedJSON
            case notAnObject
            case missingMember
            case invalidMember
        }

        private let kind: Kind

        /// The line is not JSON (RFC 8259); ``EventLineError/cause`` says why.
        public static let malformedJSON = Code(kind: .malformedJSON)
        /// The line is JSON, but not an object.
        public static let notAnObject = Code(kind: .notAnObject)
        /// `type`, `seq` or `time` is missing.
        public static let missingMember = Code(kind: .missingMember)
        /// `type`, `seq` or `time` has the wrong kind of value, or a value out of its range.
        public static let invalidMember = Code(kind: .invalidMember)

        public var description: String {
            switch kind {
            case .malformedJSON: "malformed_json"
            case .notAnObject: "not_an_object"
            case .missingMember: "missing_member"
            case .invalidMember: "invalid_member"
            }
        }
    }

    public var code: Code
    /// What is wrong, for a person.
    public var message: String
    /// The 1-based byte column of the offending value; nil for a member that is missing.
    public var column: Int?
    /// The JSON reader's error, for ``Code/malformedJSON``.
    public var cause: JSONReaderError?

    public init(_ code: Code, _ message: String, column: Int?, cause: JSONReaderError? = nil) {
        self.code = code
        self.message = message
        self.column = column
        self.cause = cause
    }

    public var description: String {
        guard let column else { return message }
        return "column \(column): \(message)"
    }
}
