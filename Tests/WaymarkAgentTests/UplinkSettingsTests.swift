import Testing
import WaymarkUplink

@testable import WaymarkAgent

/// `[sinks.traccar]` and `[sinks.http]`: what their keys accept.
@Suite struct UplinkSettingsTests {
    @Test(arguments: [
        ("http://127.0.0.1:5055/", true),
        ("HTTPS://fleet.example/waymark/batches?board=1", true),
        ("https://[::1]:8443/", true),
        ("ftp://fleet.example/", false),
        ("http://", false),
        ("http:///path", false),
        ("http://fleet example/", false),
        ("fleet.example:5055", false),
        ("", false),
    ])
    func aURLIsHTTPWithAHost(text: String, accepted: Bool) {
        #expect(UplinkSettings.isURL(text) == accepted)
    }

    @Test func everyKeyIsReadWithItsUnit() throws {
        let configuration = try Configuration.parse(
            """
            [sinks.http]
            enabled = true
            url = "https://fleet.example/batches"
            gzip = false
            max_batch_bytes = "256KB"
            timeout = "5s"
            ca_file = "/etc/waymark/ca.pem"
            retry_min = "2s"
            retry_max = "1h"
            """,
            fileName: "waymark.toml"
        )
        let http = configuration.httpSink
        #expect(
            http.uplink.enabled && http.uplink.url == "https://fleet.example/batches"
                && http.contentEncoding == .identity
        )
        #expect(http.maxBatchBytes.bytes == 256 << 10 && http.uplink.timeout == .seconds(5))
        #expect(http.uplink.caFile == "/etc/waymark/ca.pem")
        #expect(http.uplink.delivery == .init(retryMin: .seconds(2), retryMax: .seconds(3600)))
        #expect(configuration.enabledSinks == ["file", "http"])
    }

    @Test func retryMinAboveRetryMaxIsRefused() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse("[sinks.traccar]\nretry_min = \"10m\"\nretry_max = \"1m\"\n", fileName: "w.toml")
        }
        #expect(error?.description == "w.toml:3: [sinks.traccar] retry_max = \"1m\": must be at least retry_min (10m)")
    }
}

extension UplinkSettingsTests {
    /// Issue 44: `content_encoding` (by default `auto`: zstd, or gzip to a server that refuses zstd) and
    /// `compression_level` of `[sinks.http]`, and the older `gzip`.
    @Test(
        arguments: [
            ("", "auto", nil),
            ("content_encoding = \"auto\"", "auto", nil),
            ("gzip = true", "gzip", nil),
            // A level with no coding is gzip's, as before "auto" was the default.
            ("compression_level = 9", "gzip", 9),
            ("gzip = false", "identity", nil),
            ("content_encoding = \"zstd\"", "zstd", nil),
            ("content_encoding = \"zstd\"\ncompression_level = 19", "zstd", 19),
            ("gzip = true\ncontent_encoding = \"gzip\"\ncompression_level = 9", "gzip", 9),
            ("gzip = false\ncontent_encoding = \"identity\"", "identity", nil),
            ("content_encoding = \"identity\"", "identity", nil),
        ] as [(String, String, Int?)]
    )
    func theContentEncodingAndItsLevel(lines: String, coding: String, level: Int?) throws {
        let configuration = try Configuration.parse(
            "[sinks.http]\nenabled = true\nurl = \"https://fleet.example/b\"\n\(lines)\n",
            fileName: "w.toml"
        )
        #expect(configuration.httpSink.contentEncoding.rawValue == coding)
        #expect(configuration.httpSink.compressionLevel == level)
        let codings: [ContentCoding] =
            coding == "auto" ? [.zstd, .gzip] : [try #require(ContentCoding(rawValue: coding))]
        #expect(configuration.httpSink.contentEncoding.codings == codings)
    }

    @Test(arguments: [
        (
            "content_encoding = \"br\"",
            #"w.toml:2: [sinks.http] content_encoding = "br": must be "auto" or "identity" or "gzip" or "zstd""#
        ),
        (
            "compression_level = 12",
            #"w.toml:2: [sinks.http] compression_level = 12: content_encoding "gzip" takes 1 to 9"#
        ),
        (
            "content_encoding = \"auto\"\ncompression_level = 12",
            #"w.toml:3: [sinks.http] compression_level = 12: content_encoding "auto" sends zstd at 15 or gzip at 6: name the coding to choose its level"#
        ),
        (
            "gzip = true\ncompression_level = 12",
            #"w.toml:3: [sinks.http] compression_level = 12: content_encoding "gzip" takes 1 to 9"#
        ),
        (
            "gzip = true\ncontent_encoding = \"auto\"",
            #"w.toml:3: [sinks.http] content_encoding = "auto": "auto" disagrees with gzip = true"#
        ),
        (
            "content_encoding = \"identity\"\ncompression_level = 3",
            #"w.toml:3: [sinks.http] compression_level = 3: content_encoding "identity" has no level"#
        ),
        (
            "gzip = false\ncontent_encoding = \"zstd\"",
            #"w.toml:3: [sinks.http] content_encoding = "zstd": "zstd" disagrees with gzip = false: set content_encoding only"#
        ),
        (
            "gzip = true\ncontent_encoding = \"identity\"",
            #"w.toml:3: [sinks.http] content_encoding = "identity": "identity" disagrees with gzip = true"#
        ),
        (
            "gzip = false\ncompression_level = 3",
            #"w.toml:3: [sinks.http] compression_level = 3: gzip = false sends bodies as they are: no level"#
        ),
        (
            "content_encoding = \"zstd\"\ncompression_level = 20",
            #"w.toml:3: [sinks.http] compression_level = 20: must be"#
        ),
    ])
    func aCodingOrLevelTheSinkCannotUseIsRefused(lines: String, message: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse("[sinks.http]\n\(lines)\n", fileName: "w.toml")
        }
        #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "")")
    }

    /// Issue 44: the batch sink's lines go without `recv` unless `recv = true`; a value that is not a boolean is
    /// refused on its line.
    @Test(arguments: [("", false), ("recv = false", false), ("recv = true", true)])
    func recvIsLeftOutUnlessAsked(line: String, sends: Bool) throws {
        let configuration = try Configuration.parse("[sinks.http]\n\(line)\n", fileName: "w.toml")
        #expect(configuration.httpSink.sendsReceiptTimes == sends)
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse("[sinks.http]\nrecv = \"yes\"\n", fileName: "w.toml")
        }
        #expect(
            error?.description.hasPrefix(#"w.toml:2: [sinks.http] recv = "yes": "#) == true,
            "\(error?.description ?? "")"
        )
    }

    @Test func aRefusedCodingsLevelIsNotJudgedAgainstTheDefaultCoding() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse(
                "[sinks.http]\ncontent_encoding = \"br\"\ncompression_level = 12\n",
                fileName: "w.toml"
            )
        }
        #expect(error?.issues.map(\.key) == ["content_encoding"], "\(error?.description ?? "")")
    }

    @Test(arguments: [("bus-7", "s7"), ("bus-0042", "42"), ("X", "X"), ("---", "wm")])
    func theTrackerIDIsTheDeviceIDsLastTwoLettersOrDigits(device: String, tid: String) {
        #expect(OwnTracksSinkSettings().tid(deviceID: device) == tid)
    }

    @Test func aClientCertificateNeedsItsKeyAndTLS() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse(
                "[sinks.owntracks]\nenabled = true\nhost = \"broker\"\ncert_file = \"/etc/c.pem\"\n",
                fileName: "w.toml"
            )
        }
        #expect(
            error?.description.contains("[sinks.owntracks] key_file: missing: a client certificate needs both") == true
        )
        #expect(
            error?.description.contains("[sinks.owntracks] ca_file: missing: a client certificate is for TLS") == true
        )
    }
}

extension UplinkSettingsTests {
    /// Issue 36: `start` of each network sink, "oldest" unless it says "now"; anything else is refused by name.
    @Test(arguments: [
        ("traccar", "url = \"http://127.0.0.1:5055/\""), ("http", "url = \"https://fleet.example/batches\""),
        ("owntracks", "host = \"broker\""),
    ])
    func startIsOldestOrNow(sink: String, server: String) throws {
        func start(_ line: String) throws -> SinkStart {
            let configuration = try Configuration.parse(
                "[sinks.\(sink)]\nenabled = true\n\(server)\n\(line)\n",
                fileName: "w.toml"
            )
            return Storage.start(ofSink: sink, configuration)
        }
        #expect(try start("") == .oldest)
        #expect(try start("start = \"oldest\"") == .oldest)
        #expect(try start("start = \"now\"") == .now)
        let error = #expect(throws: ConfigurationError.self) { try start("start = \"today\"") }
        #expect(error?.description == "w.toml:4: [sinks.\(sink)] start = \"today\": must be \"oldest\" or \"now\"")
    }

    /// `drain_rate`: 100 messages a second by default, 0 for no pace, at most 100,000; anything else refused by line.
    @Test(arguments: [
        ("", "100"),
        ("drain_rate = 0", "0"),
        ("drain_rate = 25", "25"),
        ("drain_rate = 100000", "100000"),
        ("drain_rate = -1", "w.toml:2: [sinks.owntracks] drain_rate = -1"),
        ("drain_rate = 100001", "w.toml:2: [sinks.owntracks] drain_rate = 100001"),
        ("drain_rate = \"fast\"", "w.toml:2: [sinks.owntracks] drain_rate"),
    ])
    func theDrainRate(line: String, expected: String) {
        do {
            let configuration = try Configuration.parse("[sinks.owntracks]\n\(line)\n", fileName: "w.toml")
            #expect("\(configuration.ownTracksSink.drainRate)" == expected)
        } catch {
            #expect("\(error)".hasPrefix(expected), "\(error)")
        }
    }
}
