import Testing

@testable import WaymarkFormats

/// The footer's TZ strings on their own, at instants worked out by hand from the rules.
@Suite struct POSIXTimeZoneTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        /// Seconds since 1970, UTC.
        var instant: Int64
        var offset: Int
        var abbreviation: String
        var testDescription: String { "\(rule) at \(instant)" }
    }

    // 2030-03-31T01:00:00Z is 1_901_149_200: the last Sunday of March 2030, when Europe changes at 01:00 UTC.
    static let cases: [Case] = [
        Case(rule: "CET-1CEST,M3.5.0,M10.5.0/3", instant: 1_901_149_199, offset: 3600, abbreviation: "CET"),
        Case(rule: "CET-1CEST,M3.5.0,M10.5.0/3", instant: 1_901_149_200, offset: 7200, abbreviation: "CEST"),
        // 2030-10-27T01:00:00Z = 1_919_293_200: back to CET.
        Case(rule: "CET-1CEST,M3.5.0,M10.5.0/3", instant: 1_919_293_199, offset: 7200, abbreviation: "CEST"),
        Case(rule: "CET-1CEST,M3.5.0,M10.5.0/3", instant: 1_919_293_200, offset: 3600, abbreviation: "CET"),
        // Sydney: summer from the first Sunday of October to the first Sunday of April; 2030-01-01 is summer.
        Case(rule: "AEST-10AEDT,M10.1.0,M4.1.0/3", instant: 1_893_456_000, offset: 39_600, abbreviation: "AEDT"),
        Case(rule: "AEST-10AEDT,M10.1.0,M4.1.0/3", instant: 1_909_000_000, offset: 36_000, abbreviation: "AEST"),
        Case(rule: "<+0530>-5:30", instant: 1_893_456_000, offset: 19_800, abbreviation: "+0530"),
        Case(rule: "<-03>3", instant: 0, offset: -10_800, abbreviation: "-03"),
        Case(rule: "UTC0", instant: 1_893_456_000, offset: 0, abbreviation: "UTC"),
        // Without rules, the United States' (glibc's default): 2030-07-01 is summer.
        Case(rule: "EST5EDT", instant: 1_909_180_800, offset: -14_400, abbreviation: "EDT"),
        // Ireland's negative DST: GMT is the "daylight saving" of winter.
        Case(rule: "IST-1GMT0,M10.5.0,M3.5.0/1", instant: 1_893_456_000, offset: 0, abbreviation: "GMT"),
        Case(rule: "IST-1GMT0,M10.5.0,M3.5.0/1", instant: 1_909_180_800, offset: 3600, abbreviation: "IST"),
        // RFC 8536's permanent daylight saving time: all year.
        Case(rule: "EST5EDT,0/0,J365/25", instant: 1_893_456_000, offset: -14_400, abbreviation: "EDT"),
        Case(rule: "EST5EDT,0/0,J365/25", instant: 1_924_991_999, offset: -14_400, abbreviation: "EDT"),
        // Chatham: quarter-hour offsets and transition times.
        Case(
            rule: "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45",
            instant: 1_893_456_000,
            offset: 49_500,
            abbreviation: "+1345"
        ),
    ]

    @Test("local time by the rule", arguments: cases)
    func localTime(_ test: Case) throws {
        let zone = try POSIXTimeZone(test.rule)
        let local = zone.localTime(at: test.instant)
        #expect(local.utcOffsetSeconds == test.offset)
        #expect(local.abbreviation == test.abbreviation)
    }

    @Test(
        "a string that is not a TZ rule is refused, saying where",
        arguments: [
            "", "CE", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.5.0,M10.5.0/200",
            "<+05", "CET-25", "CET-1CEST,J366,J1", "CET-1 ", "CET-1:60",
        ]
    )
    func refused(_ rule: String) {
        #expect(throws: POSIXTimeZoneError.self) { try POSIXTimeZone(rule) }
    }
}
