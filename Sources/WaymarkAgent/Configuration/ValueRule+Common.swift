import WaymarkFormats

/// How messages name a duration, with examples of every common unit.
private let aDuration = "a duration such as \"500ms\", \"5s\", \"3m\" or \"2h\""
/// How messages name a size, with examples of every common unit.
private let aSize = "a size such as \"512B\", \"64KB\", \"256MB\" or \"1GB\""

extension ValueRule where Value == Int {
    /// An integer in `range`.
    static func integer(in range: ClosedRange<Int>) -> ValueRule {
        ValueRule { value in
            guard case .integer(let integer) = value else {
                return .rejected("must be an integer, not \(value.kind.noun)")
            }
            guard let integer = Int(exactly: integer), range.contains(integer) else {
                return .rejected("must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return .accepted(integer)
        }
    }
}

extension ValueRule where Value == Bool {
    /// `true` or `false`.
    static var boolean: ValueRule {
        ValueRule { value in
            guard case .boolean(let boolean) = value else {
                return .rejected("must be true or false, not \(value.kind.noun)")
            }
            return .accepted(boolean)
        }
    }
}

extension ValueRule where Value == String {
    /// A string for which `isValid` holds; `requirement` says what that is: `an absolute path`.
    static func string(_ requirement: String, where isValid: @escaping @Sendable (String) -> Bool) -> ValueRule {
        ValueRule { value in
            guard case .string(let string) = value else {
                return .rejected("must be a string, not \(value.kind.noun)")
            }
            return isValid(string) ? .accepted(string) : .rejected("must be \(requirement)")
        }
    }

    /// A host name or an IP address: no spaces or control characters, at most 253 bytes as DNS allows.
    static var hostName: ValueRule {
        string("a host name or IP address, such as \"127.0.0.1\"") { host in
            !host.isEmpty && host.utf8.count <= 253 && host.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
        }
    }

    /// An absolute path: it starts with `/` and has no NUL byte.
    static var absolutePath: ValueRule {
        string("an absolute path, starting with \"/\"") { path in
            path.hasPrefix("/") && !path.utf8.contains(0)
        }
    }

    /// An absolute path, or `""` for none (a setting whose default is a file, switched off).
    static var absolutePathOrNone: ValueRule {
        string("an absolute path, starting with \"/\", or \"\" for none") { path in
            path.isEmpty || (path.hasPrefix("/") && !path.utf8.contains(0))
        }
    }

    /// A name that is safe in file names, log lines and URLs: 1 to 64 ASCII letters, digits, `.`, `_`, `-`, `:`.
    static var identifier: ValueRule {
        string("1 to 64 characters, each a letter, a digit, \".\", \"_\", \"-\" or \":\"") { name in
            (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
                        UInt8(ascii: ":"):
                        true
                    default:
                        false
                    }
                }
        }
    }
}

extension ValueRule where Value == Duration {
    /// A duration string more than `lower` and at most `upper`: `"500ms"`, `"5s"`, `"3m"`, `"2h"`.
    static func duration(moreThan lower: Duration, atMost upper: Duration) -> ValueRule {
        ValueRule { value in
            guard case .string(let text) = value else {
                return .rejected("must be \(aDuration), not \(value.kind.noun)")
            }
            guard let duration = Duration(configText: text) else {
                return .rejected("must be \(aDuration)")
            }
            guard duration > lower, duration <= upper else {
                return .rejected("must be a duration more than \(lower.configText) and at most \(upper.configText)")
            }
            return .accepted(duration)
        }
    }

    /// A duration string from zero to `upper`; `zero` says what zero means in the messages ("off").
    static func duration(atMost upper: Duration, zero: String = "off") -> ValueRule {
        ValueRule { value in
            guard case .string(let text) = value else {
                return .rejected("must be \(aDuration), not \(value.kind.noun)")
            }
            guard let duration = Duration(configText: text), duration >= .zero, duration <= upper else {
                return .rejected("must be a duration from \"0s\" (\(zero)) to \"\(upper.configText)\"")
            }
            return .accepted(duration)
        }
    }
}

extension ValueRule where Value == ByteCount {
    /// A size string in `range`: `"64KB"`, `"256MB"`, `"1GB"` (``ByteCount``).
    static func size(in range: ClosedRange<ByteCount>) -> ValueRule {
        size { size in
            range.contains(size) ? nil : "must be a size from \"\(range.lowerBound)\" to \"\(range.upperBound)\""
        }
    }

    /// A size string from zero (which turns the setting off) to `upper`.
    static func size(atMost upper: ByteCount) -> ValueRule {
        size { size in size <= upper ? nil : "must be a size from \"0B\" (off) to \"\(upper)\"" }
    }

    /// A size string that `problem` finds nothing wrong with (it returns nil), or its message.
    private static func size(_ problem: @escaping @Sendable (ByteCount) -> String?) -> ValueRule {
        ValueRule { value in
            guard case .string(let text) = value else {
                return .rejected("must be \(aSize), not \(value.kind.noun)")
            }
            guard let size = ByteCount(configText: text) else {
                return .rejected("must be \(aSize)")
            }
            return problem(size).map { .rejected($0) } ?? .accepted(size)
        }
    }
}

extension ValueRule where Value == Double {
    /// A number (integer or float) in `range`, in `unit`: `must be a number of metres from 0 to 100000`.
    static func number(in range: ClosedRange<Double>, _ unit: String) -> ValueRule {
        ValueRule { value in
            let number: Double
            switch value {
            case .integer(let integer): number = Double(integer)
            case .float(let float): number = float
            default: return .rejected("must be a number of \(unit), not \(value.kind.noun)")
            }
            guard number.isFinite, range.contains(number) else {
                return .rejected(
                    "must be a number of \(unit) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
                )
            }
            return .accepted(number)
        }
    }

    /// A bound without a needless `.0`: `100000`, `0.5`.
    static func format(_ number: Double) -> String {
        number == number.rounded() && number.magnitude < 1e15 ? "\(Int64(number))" : "\(number)"
    }
}

extension ValueRule where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the raw values of `Value`, as a string.
    static var oneOf: ValueRule {
        let names = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        return ValueRule { value in
            guard case .string(let string) = value, let choice = Value(rawValue: string) else {
                return .rejected("must be \(names)")
            }
            return .accepted(choice)
        }
    }
}
