/// A value in a TOML document.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The TOML type of a value, named in messages about a value of the wrong type.
    public enum Kind: Sendable, Equatable {
        case string
        case integer
        case float
        case boolean
        case array
        case table

        /// The type with its article, as in "must be an integer, not a string".
        public var noun: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a float"
            case .boolean: "a boolean"
            case .array: "an array"
            case .table: "a table"
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .string: .string
        case .integer: .integer
        case .float: .float
        case .boolean: .boolean
        case .array: .array
        case .table: .table
        }
    }
}

extension TOMLValue: CustomStringConvertible {
    /// The value written as TOML on one line, as messages quote it: `"2947"`, `-5`, `[1, 2]`.
    public var description: String {
        switch self {
        case .string(let string): TOMLValue.quoted(string)
        case .integer(let integer): String(integer)
        case .float(let float): TOMLValue.literal(float)
        case .boolean(let boolean): String(boolean)
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .table(let table):
            table.entries.isEmpty
                ? "{}"
                : "{ " + table.entries.map { "\(TOMLValue.key($0.key)) = \($0.value)" }.joined(separator: ", ") + " }"
        }
    }

    /// A key as TOML writes it: bare if it can be, else quoted.
    public static func key(_ key: String) -> String {
        let isBare = !key.isEmpty && key.utf8.allSatisfy(TOMLValue.isBareKeyByte)
        return isBare ? key : quoted(key)
    }

    /// Whether `byte` may appear in a bare key: ASCII letters, digits, `_` and `-`.
    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// `string` as a TOML basic string, with quotes, backslashes and control characters escaped.
    public static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func literal(_ float: Double) -> String {
        if float.isNaN { return "nan" }
        if float.isInfinite { return float < 0 ? "-inf" : "inf" }
        return String(float)
    }
}
