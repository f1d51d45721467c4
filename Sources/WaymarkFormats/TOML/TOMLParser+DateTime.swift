extension TOMLParser {
    /// Reads an offset date-time, a local date-time, a local date or a local time, as RFC 3339 writes them
    /// (TOML allows a space or a lower-case `t` for the `T`, and a lower-case `z`).
    static func parseDateTime(_ token: ArraySlice<UInt8>) throws(TOMLRefusal) -> TOMLDateTime {
        var scanner = DateTimeScanner(bytes: token)
        let text = String(decoding: token, as: UTF8.self)
        let refusal = TOMLRefusal(
            "invalid date or time \(text); TOML writes them as 1979-05-27T07:32:00Z, 1979-05-27T07:32:00-07:00, "
                + "1979-05-27 07:32:00.5, 1979-05-27 or 07:32:00"
        )
        var date: TOMLDateTime.LocalDate?
        if token.dropFirst(4).first == UInt8(ascii: "-") {
            guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
                scanner.skip("-"), let day = scanner.number(digits: 2)
            else { throw refusal }
            guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else {
                throw TOMLRefusal("invalid date \(text): there is no day \(day) in month \(month) of year \(year)")
            }
            date = TOMLDateTime.LocalDate(year: year, month: month, day: day)
            guard !scanner.isAtEnd else { return TOMLDateTime(date: date, time: nil) }
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else { throw refusal }
        }
        guard let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            scanner.skip(":"), let second = scanner.number(digits: 2)
        else { throw refusal }
        var fraction = ""
        if scanner.skip(".") {
            fraction = scanner.digits()
            guard !fraction.isEmpty else { throw refusal }
        }
        guard hour < 24, minute < 60, second <= 60 else {
            throw TOMLRefusal("invalid time \(text): hours go to 23, minutes to 59 and seconds to 59 (60 in a leap)")
        }
        let time = TOMLDateTime.LocalTime(hour: hour, minute: minute, second: second, fraction: fraction)
        var offsetMinutes: Int?
        if date != nil && !scanner.isAtEnd {
            if scanner.skip("Z") || scanner.skip("z") {
                offsetMinutes = 0
            } else {
                let isNegative = scanner.skip("-")
                guard isNegative || scanner.skip("+"), let hours = scanner.number(digits: 2), scanner.skip(":"),
                    let minutes = scanner.number(digits: 2)
                else { throw refusal }
                guard hours < 24, minutes < 60 else {
                    throw TOMLRefusal("invalid date-time \(text): an offset is at most 23:59")
                }
                offsetMinutes = (isNegative ? -1 : 1) * (hours * 60 + minutes)
            }
        }
        guard scanner.isAtEnd else { throw refusal }
        return TOMLDateTime(date: date, time: time, offsetMinutes: offsetMinutes)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads the parts of a date or time one by one.
    private struct DateTimeScanner {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        var isAtEnd: Bool { index == bytes.endIndex }

        /// The number written with exactly `digits` digits here, if there is one.
        mutating func number(digits: Int) -> Int? {
            guard bytes.endIndex - index >= digits else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard byte.isDigit else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        /// The digits here, as written.
        mutating func digits() -> String {
            let start = index
            while index < bytes.endIndex && bytes[index].isDigit {
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// Moves past `character` if it is here.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
    }
}
