import WaymarkFormats

/// A value as toml-test's expected `.json` files write it: tables as objects, arrays as arrays, and every other
/// value as `{"type": "integer", "value": "42"}`.
enum TaggedJSON: Equatable, CustomStringConvertible {
    case table([String: TaggedJSON])
    case array([TaggedJSON])
    case value(type: String, value: String)

    /// Reads an expected `.json` file.
    init(json bytes: [UInt8]) throws {
        var reader = try JSONReader(bytes)
        self = try Self.read(&reader)
        try reader.finish()
    }

    /// A parsed TOML value, tagged as toml-test tags it.
    init(_ value: TOMLValue) {
        switch value {
        case .string(let string): self = .value(type: "string", value: string)
        case .integer(let integer): self = .value(type: "integer", value: String(integer))
        case .float(let float): self = .value(type: "float", value: float.isNaN ? "nan" : String(float))
        case .boolean(let boolean): self = .value(type: "bool", value: String(boolean))
        case .dateTime(let dateTime):
            let type =
                switch value.kind {
                case .offsetDateTime: "datetime"
                case .localDateTime: "datetime-local"
                case .localDate: "date-local"
                default: "time-local"
                }
            self = .value(type: type, value: dateTime.description)
        case .array(let elements): self = .array(elements.map { TaggedJSON($0) })
        case .table(let table):
            self = .table(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, TaggedJSON($0.value)) }))
        }
    }

    /// Whether `other` holds the same values as toml-test compares them: floats as numbers, date-times as
    /// written up to the case of `T` and `Z`, the separator and trailing zeros of the fraction.
    func matches(_ other: TaggedJSON) -> Bool {
        switch (self, other) {
        case (.table(let mine), .table(let theirs)):
            return mine.count == theirs.count
                && mine.allSatisfy { key, value in theirs[key].map { value.matches($0) } ?? false }
        case (.array(let mine), .array(let theirs)):
            return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.matches($1) }
        case (.value(let type, let mine), .value(let theirType, let theirs)):
            guard type == theirType else { return false }
            switch type {
            case "float":
                guard let a = Self.float(mine), let b = Self.float(theirs) else { return false }
                return a == b || (a.isNaN && b.isNaN)
            case "datetime", "datetime-local", "date-local", "time-local":
                return Self.normalized(dateTime: mine) == Self.normalized(dateTime: theirs)
            default:
                return mine == theirs
            }
        default:
            return false
        }
    }

    var description: String {
        switch self {
        case .table(let table):
            "{" + table.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .value(let type, let value): "\(type) \(TOMLValue.quoted(value))"
        }
    }

    private static func read(_ reader: inout JSONReader) throws -> TaggedJSON {
        switch try reader.peek() {
        case .array:
            var elements: [TaggedJSON] = []
            try reader.beginArray()
            while try reader.nextElement() != nil {
                elements.append(try read(&reader))
            }
            return .array(elements)
        case .object:
            var members: [String: TaggedJSON] = [:]
            try reader.beginObject()
            while let key = try reader.nextKey() {
                members[key] = try read(&reader)
            }
            if members.count == 2, case .value(_, let type)? = members["type"],
                case .value(_, let value)? =
                    members["value"]
            {
                return .value(type: type, value: value)
            }
            return .table(members)
        case .string:
            return .value(type: "", value: try reader.readString())
        default:
            throw TaggedJSONError(message: "unexpected \(try reader.peek()) at \(reader.position)")
        }
    }

    private static func float(_ text: String) -> Double? {
        switch text {
        case "nan", "+nan", "-nan": .nan
        case "inf", "+inf": .infinity
        case "-inf": -.infinity
        default: Double(text)
        }
    }

    /// `1987-07-05 17:45:00.100z` as `1987-07-05T17:45:00.1Z`.
    private static func normalized(dateTime text: String) -> String {
        var text = text.uppercased().replacing(" ", with: "T")
        text = text.replacing("+00:00", with: "Z").replacing("-00:00", with: "Z")
        guard let dot = text.firstIndex(of: ".") else { return text }
        let digitsEnd = text[text.index(after: dot)...].firstIndex { !$0.isNumber } ?? text.endIndex
        var fraction = text[text.index(after: dot)..<digitsEnd].prefix(9)
        while fraction.last == "0" { fraction.removeLast() }
        return text[..<dot] + (fraction.isEmpty ? "" : "." + fraction) + text[digitsEnd...]
    }
}

struct TaggedJSONError: Error {
    var message: String
}
