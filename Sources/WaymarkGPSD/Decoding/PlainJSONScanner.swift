/// A cursor over one line of gpsd JSON in the plain shape gpsd writes, reading values with libgps's own
/// arithmetic: for ``BuiltinDecoder``.
///
/// Every read returns nil, and the line goes to `gps_unpack`, at anything outside that shape: white space,
/// escapes, exponents, more than 18 digits, leading zeros. Within it the values are those libgps computes.
struct PlainJSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes `byte` when it is next.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `prefix` when the line continues with it.
    mutating func skip(_ prefix: [UInt8]) -> Bool {
        guard bytes.count - index >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[index + offset] != byte { return false }
        index += prefix.count
        return true
    }

    /// `"name":`, the name packed into a ``PackedKey``; nil for a name longer than 16 bytes.
    mutating func key() -> PackedKey? {
        guard skip(UInt8(ascii: "\"")) else { return nil }
        var key = PackedKey()
        var length = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard length < 16, bytes[index] > 0x20, bytes[index] != UInt8(ascii: "\\") else { return nil }
            key.append(bytes[index], at: length)
            length += 1
            index += 1
        }
        guard length > 0, skip(UInt8(ascii: "\"")), skip(UInt8(ascii: ":")) else { return nil }
        return key
    }

    /// `"key":value` members separated by commas, as many as follow, each value read by `read`. False for a
    /// key not in `members` and when `read` returns false.
    mutating func members<Member>(
        _ members: [(key: PackedKey, member: Member)],
        read: (Member, inout PlainJSONScanner) -> Bool
    ) -> Bool {
        repeat {
            guard let key = key(), let member = members.first(where: { $0.key == key })?.member, read(member, &self)
            else { return false }
        } while skip(UInt8(ascii: ","))
        return true
    }

    /// A string without escapes or control characters, at most `maximumLength` bytes: its bytes.
    mutating func string(maximumLength: Int) -> UnsafeBufferPointer<UInt8>? {
        guard skip(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\\"), index - start < maximumLength else {
                return nil
            }
            index += 1
        }
        let end = index
        guard skip(UInt8(ascii: "\"")) else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `true` or `false`.
    mutating func boolean() -> Bool? {
        if skip(Self.trueLiteral) { return true }
        if skip(Self.falseLiteral) { return false }
        return nil
    }

    /// An integer of at most 9 digits, without leading zeros, in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int? {
        let negative = skip(UInt8(ascii: "-"))
        let start = index
        var value = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            // Digits past the ninth are passed over, not added: a longer number is refused below, and twenty
            // digits would overflow (found by `scripts/fuzz.sh gpsd-builtin`).
            if index - start < 9 { value = value * 10 + digit }
            index += 1
        }
        let count = index - start
        guard (1...9).contains(count), count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        value = negative ? -value : value
        return range.contains(value) ? value : nil
    }

    /// A number `-?D+(.D+)?` of at most 18 digits, computed as libgps's `safe_atof` computes it: the digits
    /// as an integer (two halves of nine, joined in floating point), divided by the power of ten of the
    /// digits after the point.
    ///
    /// That power is `safe_atof`'s product of 10, 10², 10⁴, 10⁸ and 10¹⁶ over the bits of the digit count;
    /// each product is a power of ten up to 10¹⁸, exact in a `Double`, so the table holds the same values.
    /// `1e9 × high` is exact too (5⁹ × high < 2⁵³), so the sum rounds once whether or not a compiler fuses
    /// libgps's multiply and add (gcc may, on arm64).
    mutating func number() -> Double? {
        let negative = skip(UInt8(ascii: "-"))
        let start = index
        var mantissa: UInt64 = 0
        var digits = 0
        var digitsAfterPoint = -1
        while index < bytes.count {
            if let digit = Self.digit(bytes[index]) {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                digits += 1
                if digitsAfterPoint >= 0 { digitsAfterPoint += 1 }
            } else if bytes[index] == UInt8(ascii: "."), digitsAfterPoint < 0, digits > 0 {
                digitsAfterPoint = 0
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, digits <= 18, digitsAfterPoint != 0 else { return nil }
        // JSON's leading zero: "0" or "0.5", never "05".
        if bytes[start] == UInt8(ascii: "0"), index - start > 1, bytes[start + 1] != UInt8(ascii: ".") { return nil }
        let fraction = 1.0e9 * Double(mantissa / 1_000_000_000) + Double(mantissa % 1_000_000_000)
        let value = digitsAfterPoint > 0 ? fraction / Self.powersOfTen[digitsAfterPoint] : fraction
        return negative ? -value : value
    }

    /// A time `YYYY-MM-DDTHH:MM:SS[.F]Z`, as libgps's `iso8601_to_timespec` reads it: the calendar fields
    /// by `mkgmtime`, the fraction as `strtod` reads it, times 10⁹, truncated. Nil outside that shape, for a
    /// leap second, and for a fraction of more than 15 digits.
    mutating func time() -> (seconds: Int, nanoseconds: Int)? {
        guard let text = string(maximumLength: 40), text.count >= 20, text[text.count - 1] == UInt8(ascii: "Z")
        else { return nil }
        func field(_ offset: Int, _ width: Int, _ range: ClosedRange<Int>) -> Int? {
            var value = 0
            for position in offset..<offset + width {
                guard let digit = Self.digit(text[position]) else { return nil }
                value = value * 10 + digit
            }
            return range.contains(value) ? value : nil
        }
        guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            let year = field(0, 4, 0...9999), let month = field(5, 2, 1...12), let day = field(8, 2, 1...31),
            let hour = field(11, 2, 0...23), let minute = field(14, 2, 0...59), let second = field(17, 2, 0...59)
        else { return nil }
        var nanoseconds = 0
        if text.count > 20 {
            let digits = text.count - 21
            guard text[19] == UInt8(ascii: "."), (1...15).contains(digits), let value = field(20, digits, 0...Int.max)
            else { return nil }
            // Both operands are exact, so the quotient is the correctly rounded value strtod returns.
            nanoseconds = Int(Double(value) / Self.powersOfTen[digits] * 1e9)
        } else if text.count != 20 {
            return nil
        }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        return (((days * 24 + hour) * 60 + minute) * 60 + second, nanoseconds)
    }

    /// Days from 1970-01-01 to the date, as libgps's `mkgmtime` counts them (day 31 of any month included).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        var days = (year - 1970) * 365 + daysBeforeMonth[month - 1]
        days += (year - 1968) / 4 - (year - 1900) / 100 + (year - 1600) / 400
        if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) && month <= 2 { days -= 1 }
        return days + day - 1
    }

    /// Reads ``number()`` into `value`; false, leaving `value` alone, when there is none.
    mutating func number(into value: inout Double) -> Bool {
        guard let number = number() else { return false }
        value = number
        return true
    }

    /// Reads ``integer(in:)`` into `value`; false, leaving `value` alone, when there is none.
    mutating func integer(in range: ClosedRange<Int>, into value: inout Int) -> Bool {
        guard let integer = integer(in: range) else { return false }
        value = integer
        return true
    }

    /// Reads ``boolean()`` into `value`; false, leaving `value` alone, when there is none.
    mutating func boolean(into value: inout Bool) -> Bool {
        guard let boolean = boolean() else { return false }
        value = boolean
        return true
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    ]
}

/// A JSON key of at most 16 bytes packed into two integers, first byte lowest: what
/// ``PlainJSONScanner/key()`` returns, to compare without a string.
struct PackedKey: Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init() {}

    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount <= 16, "\(name) is longer than 16 bytes")
        name.withUTF8Buffer { bytes in
            for (offset, byte) in bytes.enumerated() { append(byte, at: offset) }
        }
    }

    mutating func append(_ byte: UInt8, at offset: Int) {
        if offset < 8 {
            low |= UInt64(byte) << (8 * offset)
        } else {
            high |= UInt64(byte) << (8 * (offset - 8))
        }
    }
}
