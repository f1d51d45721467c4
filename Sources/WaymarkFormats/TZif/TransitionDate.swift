/// When in a year a POSIX TZ string's daylight saving time starts or ends: a day rule and a local time of day.
///
/// The day is `Jn` (1 ... 365, February 29 never counted), `n` (0 ... 365, counting February 29) or `Mm.w.d`
/// (day `d`, 0 for Sunday, of week `w` of month `m`, 5 meaning the last); the time is seconds after the
/// day's local midnight, -167 h ... 167 h as RFC 8536 allows (POSIX's default is 02:00).
struct TransitionDate: Hashable, Sendable {
    private enum Day: Hashable, Sendable {
        case julianSkippingLeapDay(Int)
        case zeroBased(Int)
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    private let day: Day
    /// Seconds after the local midnight that starts the day.
    let secondsAfterMidnight: Int

    static func julianSkippingLeapDay(_ day: Int, at time: Int = 7200) -> TransitionDate {
        precondition((1...365).contains(day), "Jn is 1 ... 365")
        return TransitionDate(day: .julianSkippingLeapDay(day), secondsAfterMidnight: time)
    }

    static func zeroBased(_ day: Int, at time: Int = 7200) -> TransitionDate {
        precondition((0...365).contains(day), "n is 0 ... 365")
        return TransitionDate(day: .zeroBased(day), secondsAfterMidnight: time)
    }

    static func month(_ month: Int, week: Int, weekday: Int, at time: Int = 7200) -> TransitionDate {
        precondition((1...12).contains(month) && (1...5).contains(week) && (0...6).contains(weekday))
        return TransitionDate(
            day: .monthWeekDay(month: month, week: week, weekday: weekday),
            secondsAfterMidnight: time
        )
    }

    /// The transition in `year` as local wall-clock seconds since 1970-01-01T00:00 (subtract the offset in
    /// force before it to get UTC).
    func localSeconds(in year: Int64) -> Int64 {
        let leap = CivilYear.isLeap(year)
        let first = CivilYear.firstDay(of: year)
        let dayOfYear: Int
        switch day {
        case .julianSkippingLeapDay(let number): dayOfYear = number - 1 + (leap && number >= 60 ? 1 : 0)
        case .zeroBased(let number): dayOfYear = number
        case .monthWeekDay(let month, let week, let weekday):
            let monthStart = CivilYear.daysBefore(month: month, leap: leap)
            let firstWeekday = CivilYear.weekday(of: first + Int64(monthStart))
            var dayOfMonth = (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            while dayOfMonth >= CivilYear.days(in: month, leap: leap) { dayOfMonth -= 7 }
            dayOfYear = monthStart + dayOfMonth
        }
        return (first + Int64(dayOfYear)) * 86_400 + Int64(secondsAfterMidnight)
    }
}
