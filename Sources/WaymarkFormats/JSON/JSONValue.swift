/// A JSON document as a tree, for small documents that are read whole (the agent's status file): objects keep
/// their members' order, so a document written and read back prints the same.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// Reads one JSON document.
    public init(parsing bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONReaderError) {
        var reader = try JSONReader(bytes, limits: limits)
        self = try Self.read(&reader)
        try reader.finish()
    }

    /// Reads the value at `reader`, and every value in it.
    public static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> JSONValue {
        switch try reader.peek() {
        case .null:
            try reader.readNull()
            return .null
        case .boolean: return .boolean(try reader.readBoolean())
        case .number:
            let position = reader.position
            let number = try reader.readNumber()
            // A tree holds what it can write back: JSON has no infinity, and one would be written as `null`.
            guard number.isFinite else {
                throw JSONReaderError(position: position, message: "a number beyond the range of a 64-bit float")
            }
            return .number(number)
        case .string: return .string(try reader.readString())
        case .array:
            var elements: [JSONValue] = []
            try reader.beginArray()
            while let index = try reader.nextElement() {
                assert(index == elements.count, "the reader numbers elements from 0")
                elements.append(try read(&reader))
            }
            return .array(elements)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            try reader.beginObject()
            while let key = try reader.nextKey() { members.append((key, try read(&reader))) }
            return .object(members)
        }
    }

    /// The member `key` of an object; nil for anything else, or when it has none.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    public var number: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    public var boolean: Bool? {
        guard case .boolean(let boolean) = self else { return nil }
        return boolean
    }

    public var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// Sets the member `key` of an object, in place when it has one, else at the end; nothing for other values.
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        self = .object(members)
    }

    /// The document on one line, without spaces.
    public var text: String {
        var buffer: [UInt8] = []
        append(to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    public func append(to buffer: inout [UInt8]) {
        switch self {
        case .null: buffer += "null".utf8
        case .boolean(let value): buffer += (value ? "true" : "false").utf8
        case .number(let value): JSONText.appendNumber(value, to: &buffer)
        case .string(let value): JSONText.appendQuoted(value, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                element.append(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                member.value.append(to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.boolean(let a), .boolean(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .boolean(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}
