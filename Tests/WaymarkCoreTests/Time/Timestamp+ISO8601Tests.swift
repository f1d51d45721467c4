import Testing

@testable import WaymarkCore

@Suite struct TimestampISO8601Tests {
    struct Parse: Sendable, CustomTestStringConvertible {
        let text: String
        let seconds: Int64
        let nanoseconds: Int32
        var testDescription: String { text }

        init(_ text: String, _ seconds: Int64, _ nanoseconds: Int32 = 0) {
            self.text = text
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }
    }

    // Expected values computed independently (Python's datetime).
    static let parses: [Parse] = [
        Parse("1970-01-01T00:00:00Z", 0),
        Parse("2010-04-11T16:57:44Z", 1_271_005_064),
        Parse("2010-04-11T16:57:44.000Z", 1_271_005_064),
        Parse("2010-04-11T16:57:44.5Z", 1_271_005_064, 500_000_000),
        Parse("2010-04-11T16:57:44.123Z", 1_271_005_064, 123_000_000),
        Parse("2010-04-11T16:57:44.123456789Z", 1_271_005_064, 123_456_789),
        Parse("2010-04-11T16:57:44.1234567899Z", 1_271_005_064, 123_456_789),
        Parse("2010-04-11T16:57:44,25Z", 1_271_005_064, 250_000_000),
        Parse("2010-04-11T18:57:44.5+02:00", 1_271_005_064, 500_000_000),
        Parse("2010-04-11T18:57:44+0200", 1_271_005_064),
        Parse("2010-04-11T11:27:44-05:30", 1_271_005_064),
        Parse("2010-04-11T16:57:44+00:00", 1_271_005_064),
        Parse("2010-04-11T16:57:44-00:00", 1_271_005_064),
        Parse("2010-04-11t16:57:44z", 1_271_005_064),
        Parse("2010-04-11 16:57:44Z", 1_271_005_064),
        Parse("2010-04-12T00:30:00+02:00", 1_271_025_000),
        Parse("2024-02-29T12:00:00Z", 1_709_208_000),
        Parse("2000-02-29T00:00:00Z", 951_782_400),
        Parse("1968-02-29T00:00:00Z", -58_060_800),
        // gpsd 3.22 shifts pre-2017 NMEA dates forward by 1024 weeks: 2010-04-11 and 2015-08-03.
        Parse("2029-11-25T16:57:44.000Z", 1_890_320_264),
        Parse("2035-03-19T09:30:15.000Z", 2_057_909_415),
        Parse("2038-01-19T03:14:08Z", 2_147_483_648),
        Parse("2040-12-31T23:59:59.999Z", 2_240_611_199, 999_000_000),
        Parse("1969-12-31T23:59:59.999Z", -1, 999_000_000),
        Parse("1970-01-01T00:30:00+01:00", -1_800),
        Parse("1969-07-20T20:17:40Z", -14_182_940),
        Parse("1900-01-01T00:00:00Z", -2_208_988_800),
        // A leap second is accepted and lands on the following second.
        Parse("2016-12-31T23:59:60Z", 1_483_228_800),
    ]

    @Test(arguments: parses)
    func parsesToTheInstant(_ parse: Parse) throws {
        let timestamp = try #require(Timestamp(iso8601: parse.text))
        #expect(timestamp == Timestamp(seconds: parse.seconds, nanoseconds: parse.nanoseconds))
    }

    @Test func parsesASubstring() {
        let line = #"{"time":"2010-04-11T16:57:44.000Z"}"#
        let text = line.split(separator: "\"")[3]
        #expect(Timestamp(iso8601: text) == Timestamp(seconds: 1_271_005_064))
    }

    @Test(arguments: [
        "",
        "2010-04-11",
        "2010-04-11T16:57Z",
        "2010-04-11T16:57:44",
        "2010-04-11T16:57:44.5",
        "2010-04-11T16:57:44.Z",
        "2010-04-11T16:57:44.5.5Z",
        "2010-04-11T16:57:44.12aZ",
        "2010-04-11T16:57:44ZZ",
        "2010-04-11T16:57:44Z ",
        " 2010-04-11T16:57:44Z",
        "2010-04-11T16:57:44 Z",
        "2010-04-11T16:57:44Z\n",
        "2010-04-11T16:57:44UTC",
        "2010-04-11T16:57:44+02",
        "2010-04-11T16:57:44+2:00",
        "2010-04-11T16:57:44+02:0",
        "2010-04-11T16:57:44+24:00",
        "2010-04-11T16:57:44+02:60",
        "2010-04-11T16:57:44*02:00",
        "2010-13-01T00:00:00Z",
        "2010-00-10T00:00:00Z",
        "2010-04-00T00:00:00Z",
        "2010-04-31T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2010-04-11T24:00:00Z",
        "2010-04-11T16:60:00Z",
        "2010-04-11T16:57:61Z",
        "2010-4-11T16:57:44Z",
        "10-04-11T16:57:44Z",
        "-2010-04-11T16:57:44Z",
        "+2010-04-11T16:57:44Z",
        "2010/04/11T16:57:44Z",
        "2010-04-11X16:57:44Z",
        "2010-04-11T16-57-44Z",
        "20100411T165744Z",
        "２０１０-04-11T16:57:44Z",
        "1271005064",
        "not a time",
    ])
    func rejectsMalformedText(_ text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    struct Format: Sendable, CustomTestStringConvertible {
        let timestamp: Timestamp
        let text: String
        var testDescription: String { text }
    }

    static let formats: [Format] = [
        Format(timestamp: Timestamp(seconds: 0), text: "1970-01-01T00:00:00.000Z"),
        Format(
            timestamp: Timestamp(seconds: 1_271_005_064, nanoseconds: 999_999_999),
            text: "2010-04-11T16:57:44.999Z"
        ),
        Format(timestamp: Timestamp(seconds: 1_271_005_064, nanoseconds: 1_999_999), text: "2010-04-11T16:57:44.001Z"),
        Format(timestamp: Timestamp(seconds: 1_271_005_064, nanoseconds: 999_999), text: "2010-04-11T16:57:44.000Z"),
        Format(timestamp: Timestamp(seconds: 1_709_208_000), text: "2024-02-29T12:00:00.000Z"),
        Format(timestamp: Timestamp(seconds: 951_782_400), text: "2000-02-29T00:00:00.000Z"),
        Format(timestamp: Timestamp(seconds: 1_890_320_264), text: "2029-11-25T16:57:44.000Z"),
        Format(timestamp: Timestamp(seconds: 2_057_909_415, nanoseconds: 40_000_000), text: "2035-03-19T09:30:15.040Z"),
        Format(timestamp: Timestamp(seconds: 2_147_483_648), text: "2038-01-19T03:14:08.000Z"),
        Format(timestamp: Timestamp(seconds: -1, nanoseconds: 999_999_999), text: "1969-12-31T23:59:59.999Z"),
        Format(timestamp: Timestamp(seconds: -86_400), text: "1969-12-31T00:00:00.000Z"),
        Format(timestamp: Timestamp(seconds: -86_401), text: "1969-12-30T23:59:59.000Z"),
        Format(timestamp: Timestamp(seconds: -14_182_940, nanoseconds: 5_000_000), text: "1969-07-20T20:17:40.005Z"),
        Format(timestamp: Timestamp(seconds: -58_060_800), text: "1968-02-29T00:00:00.000Z"),
        Format(timestamp: Timestamp(seconds: -2_208_988_800), text: "1900-01-01T00:00:00.000Z"),
    ]

    @Test(arguments: formats)
    func formatsWithTruncatedMilliseconds(_ format: Format) {
        #expect(format.timestamp.iso8601 == format.text)
    }

    @Test(arguments: formats)
    func formattedTextParsesBackToTheMillisecond(_ format: Format) throws {
        let parsed = try #require(Timestamp(iso8601: format.text))
        let milliseconds = format.timestamp.nanoseconds / 1_000_000 * 1_000_000
        #expect(parsed == Timestamp(seconds: format.timestamp.seconds, nanoseconds: milliseconds))
        #expect(parsed.iso8601 == format.text)
    }

    @Test(arguments: parses)
    func parsedInstantFormatsInCanonicalForm(_ parse: Parse) throws {
        let timestamp = try #require(Timestamp(iso8601: parse.text))
        let reparsed = try #require(Timestamp(iso8601: timestamp.iso8601))
        #expect(reparsed.seconds == timestamp.seconds)
        #expect(reparsed.nanoseconds == timestamp.nanoseconds / 1_000_000 * 1_000_000)
        #expect(timestamp.iso8601.utf8.count == 24)
        #expect(timestamp.iso8601.hasSuffix("Z"))
    }

    /// Every 7,777.777 s from 1968 to 2040 (all times of day, all milliseconds) survives format and parse.
    @Test func roundTripsAcrossSeventyThreeYears() throws {
        var nanoseconds: Int64 = -731 * 86_400 * 1_000_000_000
        let end: Int64 = 25_933 * 86_400 * 1_000_000_000
        var count = 0
        while nanoseconds < end {
            let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
            let timestamp = Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds - seconds * 1_000_000_000))
            let parsed = try #require(Timestamp(iso8601: timestamp.iso8601), "\(timestamp.iso8601)")
            #expect(parsed.duration(since: timestamp) <= .zero)
            #expect(parsed.duration(since: timestamp) > .milliseconds(-1))
            nanoseconds += 7_777_777_777_777
            count += 1
        }
        #expect(count > 290_000)
    }

    @Test func appendsWithoutReplacingTheBuffer() {
        var bytes = Array("t=".utf8)
        Timestamp(seconds: 1_271_005_064, nanoseconds: 7_000_000).appendISO8601(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "t=2010-04-11T16:57:44.007Z")
    }

    /// `days(fromCivil:)` and `civil(fromDays:)` against a plain day counter, for every day of 1968–2040.
    @Test func civilConversionsMatchADayCounterFrom1968To2040() {
        func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
        let monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        // 1968 (leap) and 1969 lie between 1968-01-01 and 1970-01-01.
        var dayNumber: Int64 = -(366 + 365)
        var mismatches: [String] = []
        for year in 1968...2040 {
            for month in 1...12 {
                let length = month == 2 && isLeap(year) ? 29 : monthLengths[month - 1]
                #expect(Timestamp.daysIn(month: month, year: year) == length)
                for day in 1...length {
                    let days = Timestamp.days(fromCivil: year, month: month, day: day)
                    let civil = Timestamp.civil(fromDays: dayNumber)
                    if days != dayNumber || civil.year != Int64(year) || civil.month != month || civil.day != day {
                        mismatches.append("\(year)-\(month)-\(day): \(days) vs \(dayNumber), \(civil)")
                    }
                    dayNumber += 1
                }
            }
        }
        #expect(mismatches.isEmpty)
        #expect(dayNumber == 25_933)
    }

    @Test(arguments: [(1900, 2, 28), (2100, 2, 28), (2000, 2, 29), (2024, 2, 29), (2023, 2, 28), (2023, 4, 30)])
    func daysInMonthFollowsTheGregorianRules(_ year: Int, _ month: Int, _ days: Int) {
        #expect(Timestamp.daysIn(month: month, year: year) == days)
    }
}
