import Testing
import WaymarkAgent

@Suite struct ConfigTextTests {
    @Test(arguments: [
        ("0s", Duration.zero),
        ("500ms", .milliseconds(500)),
        ("5s", .seconds(5)),
        ("1.5s", .milliseconds(1500)),
        ("3m", .seconds(180)),
        ("2h", .seconds(7200)),
        ("1d", .seconds(86_400)),
        ("0.5ms", .microseconds(500)),
        ("1.000s", .seconds(1)),
        ("0.000000001s", .nanoseconds(1)),
        ("0.25h", .seconds(900)),
        ("007s", .seconds(7)),
        ("106751d", .seconds(106_751 * 86_400)),
    ])
    func readsADuration(text: String, expected: Duration) {
        #expect(Duration(configText: text) == expected)
    }

    @Test(arguments: [
        "", "5", "s", "-5s", "+5s", "5 s", " 5s", "5s ", "5S", "5sec", "5us", "5ns", "1.s", ".5s", "1h30m",
        "1e3s", "1_000ms", "0.0000000001s", "106752d", "99999999999999999999s", "５s",
    ])
    func rejectsADuration(text: String) {
        #expect(Duration(configText: text) == nil)
    }

    @Test(arguments: [
        (Duration.zero, "0s"),
        (.seconds(30), "30s"),
        (.seconds(90), "90s"),
        (.milliseconds(1500), "1500ms"),
        (.seconds(3600), "1h"),
        (.seconds(172_800), "2d"),
        (.seconds(-5), "-5s"),
        (.microseconds(250), "0.00025s"),
        (.nanoseconds(1_000_000_001), "1.000000001s"),
    ])
    func writesADuration(duration: Duration, expected: String) {
        #expect(duration.configText == expected)
        if duration >= .zero {
            #expect(Duration(configText: expected) == duration)
        }
    }

    @Test(arguments: [
        ("0B", Int64(0)),
        ("512B", 512),
        ("64KB", 65_536),
        ("64KiB", 65_536),
        ("256MB", 268_435_456),
        ("256MiB", 268_435_456),
        ("1GB", 1_073_741_824),
        ("1.5GB", 1_610_612_736),
        ("0.5KB", 512),
        ("2TB", 2_199_023_255_552),
        ("2TiB", 2_199_023_255_552),
    ])
    func readsASize(text: String, bytes: Int64) {
        #expect(ByteCount(configText: text) == ByteCount(bytes: bytes))
    }

    @Test(arguments: [
        "", "64", "KB", "64kb", "64K", "64 KB", "-1KB", "+1KB", "1.5B", "0.1KB", "64PB", "64KiBs", "9999999TB",
    ])
    func rejectsASize(text: String) {
        #expect(ByteCount(configText: text) == nil)
    }

    @Test(arguments: [
        (Int64(0), "0B"),
        (1000, "1000B"),
        (1536, "1536B"),
        (65_536, "64KB"),
        (268_435_456, "256MB"),
        (1_073_741_824, "1GB"),
        (1_099_511_627_776, "1TB"),
    ])
    func writesASize(bytes: Int64, expected: String) {
        #expect(ByteCount(bytes: bytes).configText == expected)
        #expect(ByteCount(bytes: bytes).description == expected)
        #expect(ByteCount(configText: expected) == ByteCount(bytes: bytes))
    }
}
