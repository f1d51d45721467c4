/// A TOML offset date-time, local date-time, local date or local time, kept as written.
///
/// TOML 1.0 writes them as RFC 3339 does, with a space allowed for the `T`: `1979-05-27T07:32:00Z`,
/// `1979-05-27 07:32:00.999999`, `1979-05-27`, `07:32:00`. The fraction of a second keeps every digit
/// written, so ``description`` gives back what the document said, with `T` and `Z` in upper case; an offset
/// is kept in minutes, so `+00:00` and `-00:00` (RFC 3339's "offset unknown") both read back as `Z`.
public struct TOMLDateTime: Sendable, Hashable, CustomStringConvertible {
    /// A day of the proleptic Gregorian calendar.
    public struct LocalDate: Sendable, Hashable {
        public var year: Int
        /// 1 to 12.
        public var month: Int
        /// 1 to the last day of the month.
        public var day: Int

        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }
    }

    /// A time of day.
    public struct LocalTime: Sendable, Hashable {
        /// 0 to 23.
        public var hour: Int
        /// 0 to 59.
        public var minute: Int
        /// 0 to 60: RFC 3339 allows a leap second.
        public var second: Int
        /// The digits after the decimal point, as written: `"999"` in `07:32:00.999`, empty if there is none.
        public var fraction: String

        public init(hour: Int, minute: Int, second: Int, fraction: String = "") {
            self.hour = hour
            self.minute = minute
            self.second = second
            self.fraction = fraction
        }
    }

    /// The day; nil for a local time.
    public var date: LocalDate?
    /// The time of day; nil for a local date.
    public var time: LocalTime?
    /// Minutes east of UTC (`Z` is 0); nil for local date-times, dates and times, which hold no offset.
    public var offsetMinutes: Int?

    public init(date: LocalDate?, time: LocalTime?, offsetMinutes: Int? = nil) {
        precondition(date != nil || time != nil, "a TOML date-time has a date, a time or both")
        precondition(offsetMinutes == nil || (date != nil && time != nil), "only a date-time has an offset")
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    /// `1979-05-27T07:32:00.5-07:00`, `1979-05-27T07:32:00Z`, `1979-05-27`, `07:32:00`.
    public var description: String {
        var text = ""
        if let date {
            text += Self.digits(date.year, 4) + "-" + Self.digits(date.month, 2) + "-" + Self.digits(date.day, 2)
        }
        if let time {
            text += date == nil ? "" : "T"
            text += Self.digits(time.hour, 2) + ":" + Self.digits(time.minute, 2) + ":" + Self.digits(time.second, 2)
            text += time.fraction.isEmpty ? "" : "." + time.fraction
        }
        if let offsetMinutes {
            if offsetMinutes == 0 {
                text += "Z"
            } else {
                let magnitude = offsetMinutes.magnitude
                text += (offsetMinutes < 0 ? "-" : "+") + Self.digits(Int(magnitude / 60), 2) + ":"
                text += Self.digits(Int(magnitude % 60), 2)
            }
        }
        return text
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
