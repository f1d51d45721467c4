extension Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, milliseconds truncated, as in docs/events.md, "Events".
    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` to `bytes` without allocating, in one copy: every event and track
    /// point has one.
    public func appendISO8601(to bytes: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            put(Int(year), digits: 4, at: 0, in: text)
            text[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5, in: text)
            text[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8, in: text)
            text[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, digits: 2, at: 11, in: text)
            text[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, digits: 2, at: 14, in: text)
            text[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, digits: 2, at: 17, in: text)
            text[19] = UInt8(ascii: ".")
            put(Int(nanoseconds / 1_000_000), digits: 3, at: 20, in: text)
            text[23] = UInt8(ascii: "Z")
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// Parses ISO 8601 / RFC 3339 date-times as gpsd and GPX write them:
    /// `2029-11-25T16:57:44.000Z`, `2010-04-11T16:57:44Z`, `2010-04-11T18:57:44.5+02:00`.
    /// Returns nil for anything else, including out-of-range fields.
    public init?(iso8601 text: some StringProtocol) {
        self.init(iso8601: Array(text.utf8)[...])
    }

    /// Parses the UTF-8 bytes of a date-time as the text's initializer parses its text, without copying them: a
    /// line's `time` read straight from the line.
    public init?(iso8601 text: ArraySlice<UInt8>) {
        var parser = DigitScanner(text)
        guard let year = parser.number(digits: 4), parser.expect("-"),
            let month = parser.number(digits: 2), parser.expect("-"),
            let day = parser.number(digits: 2), parser.expect("T") || parser.expect("t") || parser.expect(" "),
            let hour = parser.number(digits: 2), parser.expect(":"),
            let minute = parser.number(digits: 2), parser.expect(":"),
            let second = parser.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var nanos = 0
        if parser.expect(".") || parser.expect(",") {
            var scale = 100_000_000
            var any = false
            while let digit = parser.digit() {
                nanos += digit * scale
                scale /= 10
                any = true
            }
            guard any else { return nil }
        }
        var offsetSeconds = 0
        if parser.expect("Z") || parser.expect("z") {
        } else if let sign = parser.sign() {
            guard let offsetHours = parser.number(digits: 2) else { return nil }
            _ = parser.expect(":")
            guard let offsetMinutes = parser.number(digits: 2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard parser.isAtEnd else { return nil }
        let days = Self.days(fromCivil: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        self.init(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(fromCivil year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Writes the last `digits` decimal digits of `value` (0 for a negative one) at `offset`.
private func put(_ value: Int, digits: Int, at offset: Int, in text: UnsafeMutableBufferPointer<UInt8>) {
    var rest = max(0, value)
    for index in (offset..<(offset + digits)).reversed() {
        text[index] = UInt8(ascii: "0") &+ UInt8(rest % 10)
        rest /= 10
    }
}

private struct DigitScanner {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    mutating func digit() -> Int? {
        guard index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            return nil
        }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if expect("+") { return 1 }
        if expect("-") { return -1 }
        return nil
    }
}
