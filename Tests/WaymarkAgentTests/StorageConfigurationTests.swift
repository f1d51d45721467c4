import Testing
import WaymarkAgent
import WaymarkCore

/// `[deferred]`, `[spool]` and `[sinks.file]`: when events reach the sinks, and what the board keeps.
@Suite struct StorageConfigurationTests {
    static func parse(_ text: String) throws -> Configuration {
        try Configuration.parse(text, fileName: "waymark.toml")
    }

    @Test func anEmptyFileGivesTheDefaults() throws {
        let configuration = try Self.parse("")
        #expect(
            configuration.deferred
                == DeferralSettings(
                    enabled: true,
                    untilTraveled: 5_000,
                    timeout: .seconds(300),
                    maxEvents: 1_000,
                    maxBytes: 256 * 1024,
                    endsOnRegion: false
                )
        )
        #expect(configuration.spool == SpoolSettings(commitInterval: .seconds(1), maxBytes: ByteCount(bytes: 64 << 20)))
        #expect(
            configuration.fileSink
                == FileSinkSettings(enabled: true, maxAgeDays: 90, maxTotalBytes: ByteCount(bytes: 1 << 30))
        )
    }

    @Test func readsEveryKey() throws {
        let text = """
            [deferred]
            enabled = false
            until_traveled = 1500.5
            timeout = "90s"
            max_events = 250
            max_bytes = "1MB"

            [spool]
            commit_interval = "250ms"
            max_bytes = "2GB"

            [sinks.file]
            enabled = false
            max_age_days = 3650
            max_total_bytes = "1TB"
            """
        let configuration = try Self.parse(text)
        let deferred = DeferralSettings(
            enabled: false,
            untilTraveled: 1500.5,
            timeout: .seconds(90),
            maxEvents: 250,
            maxBytes: 1 << 20,
            endsOnRegion: false
        )
        #expect(configuration.deferred == deferred)
        #expect(
            configuration.spool
                == SpoolSettings(commitInterval: .milliseconds(250), maxBytes: ByteCount(bytes: 2 << 30))
        )
        #expect(
            configuration.fileSink
                == FileSinkSettings(enabled: false, maxAgeDays: 3650, maxTotalBytes: ByteCount(bytes: 1 << 40))
        )
        // Every other section keeps its defaults.
        #expect(configuration.regions == RegionsSettings() && configuration.agent == AgentSettings())
    }

    @Test func zeroTurnsEachDeferralThresholdOff() throws {
        let text = """
            [deferred]
            until_traveled = 0
            timeout = "0s"
            max_events = 0
            max_bytes = "0B"

            [spool]
            commit_interval = "0s"

            [sinks.file]
            max_age_days = 0
            """
        let configuration = try Self.parse(text)
        #expect(configuration.deferred.enabled)
        #expect(configuration.deferred.untilTraveled == nil)
        #expect(configuration.deferred.timeout == nil)
        #expect(configuration.deferred.maxEvents == nil)
        #expect(configuration.deferred.maxBytes == nil)
        // Zero is a value of its own here: every event committed alone, files kept forever.
        #expect(configuration.spool.commitInterval == .zero)
        #expect(configuration.fileSink.maxAgeDays == 0)
        // The bounds themselves are allowed.
        let bounds = try Self.parse(
            """
            [deferred]
            until_traveled = 1_000_000
            timeout = "1d"
            max_events = 1_000_000
            max_bytes = "64MB"
            [spool]
            commit_interval = "1m"
            max_bytes = "64KB"
            [sinks.file]
            max_total_bytes = "1MB"
            """
        )
        #expect(bounds.deferred.untilTraveled == 1_000_000 && bounds.deferred.timeout == .seconds(86_400))
        #expect(bounds.deferred.maxEvents == 1_000_000 && bounds.deferred.maxBytes == 64 << 20)
        #expect(bounds.spool == SpoolSettings(commitInterval: .seconds(60), maxBytes: ByteCount(bytes: 64 << 10)))
        #expect(bounds.fileSink.maxTotalBytes == ByteCount(bytes: 1 << 20))
    }

    @Test(
        "[deferred] ends its windows on a region event exactly when [regions] flush is immediate, in any order",
        arguments: [
            ("[regions]\nflush = \"immediate\"\n[deferred]\nenabled = true", true),
            ("[deferred]\nenabled = true\n[regions]\nflush = \"immediate\"", true),
            ("[regions]\nflush = \"immediate\"", true),
            ("[deferred]\nmax_events = 10\n[regions]\nflush = \"deferred\"", false),
            ("[deferred]\nmax_events = 10", false),
        ]
    )
    func endsOnRegionFollowsFlush(text: String, endsOnRegion: Bool) throws {
        #expect(try Self.parse(text).deferred.endsOnRegion == endsOnRegion)
    }

    @Test(arguments: [
        // [deferred]: out of range
        (
            "[deferred]\nuntil_traveled = -1",
            "waymark.toml:2: [deferred] until_traveled = -1: must be a number of metres from 0 to 1000000"
        ),
        (
            "[deferred]\nuntil_traveled = 1000000.5",
            "waymark.toml:2: [deferred] until_traveled = 1000000.5: must be a number of metres from 0 to 1000000"
        ),
        (
            "[deferred]\ntimeout = \"25h\"",
            #"waymark.toml:2: [deferred] timeout = "25h": must be a duration from "0s" (off) to "1d""#
        ),
        (
            "[deferred]\nmax_events = 1_000_001",
            "waymark.toml:2: [deferred] max_events = 1000001: must be an integer from 0 to 1000000"
        ),
        (
            "[deferred]\nmax_events = -1",
            "waymark.toml:2: [deferred] max_events = -1: must be an integer from 0 to 1000000"
        ),
        (
            "[deferred]\nmax_bytes = \"65MB\"",
            #"waymark.toml:2: [deferred] max_bytes = "65MB": must be a size from "0B" (off) to "64MB""#
        ),
        // [deferred]: not what the key takes
        (
            "[deferred]\nenabled = \"yes\"",
            #"waymark.toml:2: [deferred] enabled = "yes": must be true or false, not a string"#
        ),
        (
            "[deferred]\nuntil_traveled = \"5km\"",
            #"waymark.toml:2: [deferred] until_traveled = "5km": must be a number of metres, not a string"#
        ),
        (
            "[deferred]\ntimeout = 300",
            #"waymark.toml:2: [deferred] timeout = 300: must be a duration such as "500ms", "5s", "3m" or "2h", not an integer"#
        ),
        (
            "[deferred]\nmax_events = 1.5",
            "waymark.toml:2: [deferred] max_events = 1.5: must be an integer, not a float"
        ),
        (
            "[deferred]\nmax_bytes = 262144",
            #"waymark.toml:2: [deferred] max_bytes = 262144: must be a size such as "512B", "64KB", "256MB" or "1GB", not an integer"#
        ),
        (
            "[deferred]\nmax_bytes = \"256 KB\"",
            #"waymark.toml:2: [deferred] max_bytes = "256 KB": must be a size such as "512B", "64KB", "256MB" or "1GB""#
        ),
        (
            "[deferred]\nends_on_region = true",
            "waymark.toml:2: [deferred] ends_on_region: unknown key; allowed keys are enabled, until_traveled, timeout, max_events, max_bytes"
        ),
        // [spool]
        (
            "[spool]\ncommit_interval = \"61s\"",
            #"waymark.toml:2: [spool] commit_interval = "61s": must be a duration from "0s" (every event alone) to "1m""#
        ),
        (
            "[spool]\nmax_bytes = \"63KB\"",
            #"waymark.toml:2: [spool] max_bytes = "63KB": must be a size from "64KB" to "64GB""#
        ),
        (
            "[spool]\nmax_bytes = \"1TB\"",
            #"waymark.toml:2: [spool] max_bytes = "1TB": must be a size from "64KB" to "64GB""#
        ),
        (
            "[spool]\nmax_bytes = [\"64MB\"]",
            #"waymark.toml:2: [spool] max_bytes = ["64MB"]: must be a size such as "512B", "64KB", "256MB" or "1GB", not an array"#
        ),
        (
            "[spool]\npath = \"/tmp/spool.sqlite\"",
            "waymark.toml:2: [spool] path: unknown key; allowed keys are commit_interval, max_bytes"
        ),
        // [sinks.file]
        (
            "[sinks.file]\nenabled = 1",
            "waymark.toml:2: [sinks.file] enabled = 1: must be true or false, not an integer"
        ),
        (
            "[sinks.file]\nmax_age_days = 3651",
            "waymark.toml:2: [sinks.file] max_age_days = 3651: must be an integer from 0 to 3650"
        ),
        (
            "[sinks.file]\nmax_age_days = \"90d\"",
            #"waymark.toml:2: [sinks.file] max_age_days = "90d": must be an integer, not a string"#
        ),
        (
            "[sinks.file]\nmax_total_bytes = \"1023KB\"",
            #"waymark.toml:2: [sinks.file] max_total_bytes = "1023KB": must be a size from "1MB" to "1TB""#
        ),
        (
            "[sinks.file]\nmax_total_bytes = \"1.5TB\"",
            #"waymark.toml:2: [sinks.file] max_total_bytes = "1.5TB": must be a size from "1MB" to "1TB""#
        ),
        (
            "[sinks.file]\nmax_age = 30",
            "waymark.toml:2: [sinks.file] max_age: unknown key; allowed keys are enabled, max_age_days, max_total_bytes"
        ),
        (
            "[sinks]\nfile = true",
            "waymark.toml:2: [sinks] file: a section, to be written as [sinks.file], not a boolean"
        ),
        (
            "[sinks.kafka]",
            "waymark.toml:1: [sinks.kafka]: unknown section; allowed sections are agent, gpsd, location, heading, activity, regions, deferred, spool, sinks.file, sinks.traccar, sinks.owntracks, sinks.http, places, metrics, health, beacons, beacons.advertise, fleet, driving"
        ),
    ])
    func reportsOneLine(text: String, expected: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Self.parse(text)
        }
        #expect(error?.issues.count == 1)
        #expect(error?.description == expected)
    }
}
