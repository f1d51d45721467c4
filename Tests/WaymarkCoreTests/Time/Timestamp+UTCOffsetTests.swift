import Testing
import WaymarkCore

/// ISO 8601 local times with their offset, as `waymark trips list --local` writes them.
@Suite struct TimestampUTCOffsetTests {
    @Test(
        "the local time and the offset",
        arguments: [
            // 2010-04-11T16:57:44.123Z
            (1_271_005_064, 7200, "2010-04-11T18:57:44.123+02:00"),
            (1_271_005_064, -18_000, "2010-04-11T11:57:44.123-05:00"),
            (1_271_005_064, 0, "2010-04-11T16:57:44.123+00:00"),
            (1_271_005_064, 45_900, "2010-04-12T05:42:44.123+12:45"),
            // Across midnight backwards, and a local mean time with seconds (Berlin's LMT, +0:53:28).
            (1_270_944_000, -3600, "2010-04-10T23:00:00.123-01:00"),
            (1_271_005_064, 3208, "2010-04-11T17:51:12.123+00:53:28"),
        ] as [(Int64, Int, String)]
    )
    func localTime(seconds: Int64, offset: Int, expected: String) {
        let instant = Timestamp(seconds: seconds, nanoseconds: 123_456_789)
        #expect(instant.iso8601(utcOffsetSeconds: offset) == expected)
        #expect(
            Timestamp(iso8601: expected) == Timestamp(seconds: seconds, nanoseconds: 123_000_000) || offset % 60 != 0
        )
    }
}
