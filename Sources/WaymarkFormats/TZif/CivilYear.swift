/// The proleptic Gregorian years that the rules of a POSIX TZ string are evaluated in, counted in days since
/// 1970-01-01.
enum CivilYear {
    static func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// Days from 1970-01-01 to the first day of `year` (negative before 1970).
    static func firstDay(of year: Int64) -> Int64 {
        leapDays(before: year) - leapDays(before: 1970) + 365 * (year - 1970)
    }

    /// The year that holds `day`, a day count since 1970-01-01.
    static func year(containing day: Int64) -> Int64 {
        var year = 1970 + floorDivide(day * 400, 146_097)
        while firstDay(of: year) > day { year -= 1 }
        while firstDay(of: year + 1) <= day { year += 1 }
        return year
    }

    /// Day of the week of a day count since 1970-01-01: 0 for Sunday (1970-01-01 was a Thursday, 4).
    static func weekday(of day: Int64) -> Int { Int(floorModulo(day + 4, 7)) }

    /// Days in `month` (1 ... 12).
    static func days(in month: Int, leap: Bool) -> Int {
        switch month {
        case 2: leap ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days of the year before the first of `month` (1 ... 12).
    static func daysBefore(month: Int, leap: Bool) -> Int {
        var total = 0
        for earlier in 1..<month { total += days(in: earlier, leap: leap) }
        return total
    }

    /// The leap days in the years before `year`, counted from year 0.
    private static func leapDays(before year: Int64) -> Int64 {
        let previous = year - 1
        return floorDivide(previous, 4) - floorDivide(previous, 100) + floorDivide(previous, 400)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 { value - floorDivide(value, divisor) * divisor }
}
