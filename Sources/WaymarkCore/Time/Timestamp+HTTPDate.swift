extension Timestamp {
    /// Parses an HTTP date in the form servers send (RFC 9110's IMF-fixdate), as in `Retry-After` and `Date`:
    /// `Sun, 06 Nov 1994 08:49:37 GMT`. Returns nil for anything else, out-of-range fields and the two obsolete
    /// forms included (RFC 9110 asks a recipient to accept those too; a `Retry-After` in one of them falls back
    /// to the backoff).
    public init?(httpDate text: String) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].hasSuffix(","), Self.weekdays.contains(String(fields[0].dropLast())),
            fields[5] == "GMT", let day = Self.number(fields[1], digits: 2),
            let month = Self.months.firstIndex(of: String(fields[2])).map({ $0 + 1 }),
            let year = Self.number(fields[3], digits: 4)
        else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = Self.number(clock[0], digits: 2),
            let minute = Self.number(clock[1], digits: 2), let second = Self.number(clock[2], digits: 2),
            hour < 24, minute < 60, second < 61, (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = Self.days(fromCivil: year, month: month, day: day)
        self.init(seconds: days * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }

    /// The value of exactly `digits` ASCII digits.
    private static func number(_ text: Substring, digits: Int) -> Int? {
        guard text.utf8.count == digits else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static let weekdays: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
