extension Timestamp {
    /// The instant as a decimal year in UTC, as NOAA's magnetic-model software counts it: the year plus the
    /// fraction of that year's actual length (365 or 366 days) elapsed. 2025-01-01T00:00Z is 2025.0,
    /// 2025-07-02T12:00Z is 2025.5, 2024-12-31T00:00Z is 2024 + 365/366.
    ///
    /// At midnight it equals NOAA's `MAG_DateToYear` (year + (day of year - 1) / days in the year); between
    /// midnights it grows linearly. Leap seconds are not counted, as in ``Timestamp`` itself.
    public var decimalYear: Double {
        let (wholeDays, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let days = secondOfDay < 0 ? wholeDays - 1 : wholeDays
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let year = Int(Self.civil(fromDays: days).year)
        let firstDay = Self.days(fromCivil: year, month: 1, day: 1)
        let daysInYear = Self.days(fromCivil: year + 1, month: 1, day: 1) - firstDay
        let elapsed = Double(days - firstDay) * 86_400 + Double(second) + Double(nanoseconds) / 1e9
        return Double(year) + elapsed / (Double(daysInYear) * 86_400)
    }
}
