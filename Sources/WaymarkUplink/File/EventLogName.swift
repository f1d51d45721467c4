import WaymarkCore

/// The daily event log's file name, `YYYY-MM-DD.jsonl`, by the UTC date of its events.
struct EventLogName {
    /// Days since 1970-01-01 (UTC).
    let day: Int64

    /// The day a name stands for; nil for a name that is not an event log's.
    init?(_ name: String) {
        let bytes = Array(name.utf8)
        guard bytes.count == 16, name.hasSuffix(".jsonl"), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        self.day = Self.days(year: year, month: month, day: day)
    }

    /// The UTC day of `time`.
    static func day(of time: Timestamp) -> Int64 {
        time.seconds >= 0 ? time.seconds / 86_400 : (time.seconds - 86_399) / 86_400
    }

    static func fileName(day: Int64) -> String {
        var text = Timestamp(seconds: day * 86_400).iso8601
        text.removeSubrange(text.index(text.startIndex, offsetBy: 10)...)
        return text + ".jsonl"
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
