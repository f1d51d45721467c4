/// A value in a TOML document.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    /// An offset date-time, local date-time, local date or local time; ``kind`` says which.
    case dateTime(TOMLDateTime)
    /// An array written in brackets, or an array of tables (`[[name]]`), whose elements are all tables.
    case array([TOMLValue])
    case table(TOMLTable)

    /// The TOML type of a value, named in messages about a value of the wrong type.
    public enum Kind: Sendable, Equatable {
        case string
        case integer
        case float
        case boolean
        case offsetDateTime
        case localDateTime
        case localDate
        case localTime
        case array
        case table

        /// The type with its article, as in "must be an integer, not a string".
        public var noun: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a float"
            case .boolean: "a boolean"
            case .offsetDateTime: "an offset date-time"
            case .localDateTime: "a local date-time"
            case .localDate: "a local date"
            case .localTime: "a local time"
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
        case .dateTime(let dateTime):
            switch (dateTime.date, dateTime.time, dateTime.offsetMinutes) {
            case (_?, _?, _?): .offsetDateTime
            case (_?, _?, nil): .localDateTime
            case (_?, nil, _): .localDate
            case (nil, _, _): .localTime
            }
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
        case .dateTime(let dateTime): dateTime.description
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .table(let table):
            table.entries.isEmpty
                ? "{}"
                : "{ " + table.entries.map { "\(TOMLValue.key($0.key)) = \($0.value)" }.joined(separator: ", ") + " }"
        }
    }

    /// A key as TOML writes it: bare if it can be, else quoted.
    public static func key(_ key: String) -> String {
        let isBare = !key.isEmpty && key.utf8.allSatisfy { $0.isBareKeyByte }
        return isBare ? key : quoted(key)
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
