/// What local time is at an instant in a time zone: the offset from UTC, whether it is daylight saving time,
/// and its abbreviation (`CEST`, `EST`, `+0530`-style `+0545`).
public struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UTC: 7200 for `CEST`, -18000 for `EST`.
    public var utcOffsetSeconds: Int
    /// True for daylight saving (summer) time.
    public var isDaylightSaving: Bool
    /// The zone's designation, `CEST`, `AEDT`, `IST`, or a number such as `+0545` where the zone has no name.
    public var abbreviation: String

    public init(utcOffsetSeconds: Int, isDaylightSaving: Bool, abbreviation: String) {
        self.utcOffsetSeconds = utcOffsetSeconds
        self.isDaylightSaving = isDaylightSaving
        self.abbreviation = abbreviation
    }
}
