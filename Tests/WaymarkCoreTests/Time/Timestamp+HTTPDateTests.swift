import Testing
import WaymarkCore

@Suite struct TimestampHTTPDateTests {
    @Test(
        "IMF-fixdate, the one form servers send, read to the second",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
            ("Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
            ("Thu, 29 Feb 2024 23:59:60 GMT", "2024-03-01T00:00:00Z"),
            ("Wed, 25 Nov 2026 06:00:30 GMT", "2026-11-25T06:00:30Z"),
        ]
    )
    func valid(text: String, iso8601: String) {
        #expect(Timestamp(httpDate: text) == Timestamp(iso8601: iso8601))
    }

    @Test(
        "anything else is nil: the obsolete forms, other zones, out-of-range or malformed fields",
        arguments: [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 gmt", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 31 Feb 2023 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994  08:49:37 GMT",
            "Son, 06 Nov 1994 08:49:37 GMT", "", "120",
        ]
    )
    func invalid(text: String) {
        #expect(Timestamp(httpDate: text) == nil)
    }
}
