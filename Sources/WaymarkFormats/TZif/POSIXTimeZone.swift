/// The rule of a POSIX TZ string, as the footer of a TZif file carries it for the instants after its last
/// transition: `CET-1CEST,M3.5.0,M10.5.0/3`, `AEST-10AEDT,M10.1.0,M4.1.0/3`, `<+0530>-5:30`, `UTC0`.
///
/// RFC 8536 extends POSIX: transition times from -167 h to 167 h, and angle-bracketed designations. Where the
/// string names daylight saving time without rules, POSIX leaves the rules to the implementation; like glibc,
/// this takes the United States' (`M3.2.0,M11.1.0`).
public struct POSIXTimeZone: Hashable, Sendable {
    /// Local time outside daylight saving time.
    public var standard: LocalTimeType
    /// Local time during daylight saving time; nil for a zone without it.
    public var daylightSaving: LocalTimeType?
    /// When daylight saving time starts, in standard local time.
    let start: TransitionDate
    /// When daylight saving time ends, in daylight saving local time.
    let end: TransitionDate

    init(standard: LocalTimeType, daylightSaving: LocalTimeType?, start: TransitionDate, end: TransitionDate) {
        self.standard = standard
        self.daylightSaving = daylightSaving
        self.start = start
        self.end = end
    }

    /// Local time at `seconds` since 1970-01-01T00:00:00Z.
    public func localTime(at seconds: Int64) -> LocalTimeType {
        guard let daylightSaving else { return standard }
        // The year of the rules is the year of standard local time: in the southern hemisphere a summer spans
        // the new year, and the test below is inverted for it.
        // Beyond some 285 million years either way, the calendar arithmetic would overflow.
        guard seconds.magnitude < 1 << 53 else { return standard }
        let local = seconds + Int64(standard.utcOffsetSeconds)
        let year = CivilYear.year(containing: CivilYear.floorDivide(local, 86_400))
        let starts = start.localSeconds(in: year) - Int64(standard.utcOffsetSeconds)
        let ends = end.localSeconds(in: year) - Int64(daylightSaving.utcOffsetSeconds)
        let inDaylightSaving =
            starts < ends ? (starts <= seconds && seconds < ends) : !(ends <= seconds && seconds < starts)
        return inDaylightSaving ? daylightSaving : standard
    }
}
