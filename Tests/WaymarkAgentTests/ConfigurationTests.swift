import Foundation
import Testing
import WaymarkAgent
import WaymarkCore

@Suite struct ConfigurationTests {
    @Test func anEmptyFileGivesTheDefaults() throws {
        let configuration = try Configuration.parse("# nothing set\n", fileName: "waymark.toml")
        #expect(configuration == Configuration())
        #expect(configuration.agent.deviceID == AgentSettings.defaultDeviceID)
        #expect(configuration.agent.stateDirectory == "/var/lib/waymark")
        #expect(configuration.agent.logDirectory == "/var/log/waymark")
        #expect(configuration.gpsd.host == "127.0.0.1")
        #expect(configuration.gpsd.port == 2947)
        #expect(configuration.gpsd.device == nil)
        #expect(configuration.gpsd.reconnectMinimum == .seconds(1))
        #expect(configuration.gpsd.reconnectMaximum == .seconds(30))
    }

    /// Whatever this machine is called: CI machines are often `localhost`, and some have no `/etc/machine-id`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/sys/kernel/hostname")))
    func theDefaultDeviceIDIsTheHostNameWhereItNamesABoard() throws {
        let hostName = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let machineID = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let namesABoard =
            !hostName.isEmpty && hostName != "localhost" && hostName.count <= 64
            && hostName.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-:".contains($0)) }
        let expected = namesABoard ? hostName : (machineID.flatMap { $0.isEmpty ? nil : $0 } ?? "waymark")
        #expect(AgentSettings.defaultDeviceID == expected, "host name \(hostName), machine id \(machineID ?? "none")")
    }

    @Test func readsEveryKey() throws {
        let text = """
            [agent]
            device_id = "bus-0042"
            state_dir = "/data/waymark/state"
            log_dir = '/data/waymark/logs'

            [gpsd]
            host = "gpsd.local"
            port = 12_947
            device = "/dev/ttyACM0"
            reconnect_min = "500ms"
            reconnect_max = "1h"
            """
        let expected = Configuration(
            agent: AgentSettings(
                deviceID: "bus-0042",
                stateDirectory: "/data/waymark/state",
                logDirectory: "/data/waymark/logs"
            ),
            gpsd: GPSDSettings(
                host: "gpsd.local",
                port: 12_947,
                device: "/dev/ttyACM0",
                reconnectMinimum: .milliseconds(500),
                reconnectMaximum: .seconds(3600)
            )
        )
        #expect(try Configuration.parse(text, fileName: "waymark.toml") == expected)
    }

    @Test func readsDottedKeysAsSections() throws {
        let text = """
            gpsd.port = 2948
            sinks.file.enabled = false
            [agent]
            device_id = "bus-0042"
            """
        let configuration = try Configuration.parse(text, fileName: "waymark.toml")
        #expect(configuration.gpsd.port == 2948)
        #expect(!configuration.fileSink.enabled)
        #expect(configuration.agent.deviceID == "bus-0042")
    }

    @Test func keysLeftOutKeepTheirDefaults() throws {
        let configuration = try Configuration.parse("[gpsd]\nport = 3000", fileName: "waymark.toml")
        #expect(configuration == Configuration(gpsd: GPSDSettings(port: 3000)))
    }

    @Test func readsLocationSettings() throws {
        let text = """
            [location]
            mode = "significant_change"
            desired_accuracy = 25
            distance_filter = 100
            max_fix_age = "0s"
            min_interval = "30s"
            heartbeat = "5m"
            angle_filter = 30
            speed_delta = 2.5
            moving_speed = 1
            significant_distance = 1000
            significant_interval = "10m"
            """
        let expected = LocationSettings(
            mode: .significantChange,
            desiredAccuracy: .meters(25),
            distanceFilter: 100,
            maxFixAge: .zero,
            minInterval: .seconds(30),
            heartbeat: .seconds(300),
            angleFilter: 30,
            speedDelta: 2.5,
            movingSpeed: 1,
            significantDistance: 1000,
            significantInterval: .seconds(600)
        )
        #expect(try Configuration.parse(text, fileName: "waymark.toml").location == expected)
        let named = try Configuration.parse("[location]\ndesired_accuracy = \"hundred_meters\"", fileName: "w.toml")
        #expect(named.location.desiredAccuracy == .meters(100))
    }

    @Test func readsHeadingSettings() throws {
        let text = """
            [heading]
            enabled = true
            source = "course"
            filter = 5
            max_age = "2s"
            min_speed = 3
            smoothing = "1500ms"
            """
        let expected = HeadingSettings(
            enabled: true,
            source: .course,
            filter: 5,
            maxAge: .seconds(2),
            minSpeed: 3,
            smoothing: .milliseconds(1500)
        )
        #expect(try Configuration.parse(text, fileName: "waymark.toml").heading == expected)
    }

    @Test func acceptsEqualReconnectDelays() throws {
        let text = "[gpsd]\nreconnect_min = \"5s\"\nreconnect_max = \"5s\""
        let configuration = try Configuration.parse(text, fileName: "waymark.toml")
        #expect(configuration.gpsd.reconnectMinimum == .seconds(5))
        #expect(configuration.gpsd.reconnectMaximum == .seconds(5))
    }

    @Test(arguments: [
        // Out of range
        ("[gpsd]\nport = -5", "waymark.toml:2: [gpsd] port = -5: must be an integer from 1 to 65535"),
        ("[gpsd]\nport = 0", "waymark.toml:2: [gpsd] port = 0: must be an integer from 1 to 65535"),
        ("[gpsd]\nport = 65536", "waymark.toml:2: [gpsd] port = 65536: must be an integer from 1 to 65535"),
        (
            "[gpsd]\nreconnect_min = \"0s\"",
            #"waymark.toml:2: [gpsd] reconnect_min = "0s": must be a duration more than 0s and at most 1h"#
        ),
        (
            "[gpsd]\nreconnect_max = \"2h\"",
            #"waymark.toml:2: [gpsd] reconnect_max = "2h": must be a duration more than 0s and at most 1h"#
        ),
        (
            "[gpsd]\nreconnect_max = \"500ms\"",
            #"waymark.toml:2: [gpsd] reconnect_max = "500ms": must be at least reconnect_min (1s)"#
        ),
        (
            "[gpsd]\nreconnect_max = \"10s\"\nreconnect_min = \"1m\"",
            #"waymark.toml:2: [gpsd] reconnect_max = "10s": must be at least reconnect_min (1m)"#
        ),
        (
            "[gpsd]\nreconnect_min = \"45s\"",
            #"waymark.toml:2: [gpsd] reconnect_min = "45s": must be at most reconnect_max (30s, its default)"#
        ),
        // Not what the key takes
        (
            "[gpsd]\nreconnect_min = \"5 parsecs\"",
            #"waymark.toml:2: [gpsd] reconnect_min = "5 parsecs": must be a duration such as "500ms", "5s", "3m" or "2h""#
        ),
        (
            "[gpsd]\nhost = \"\"",
            #"waymark.toml:2: [gpsd] host = "": must be a host name or IP address, such as "127.0.0.1""#
        ),
        (
            "[gpsd]\nhost = \"gpsd host\"",
            #"waymark.toml:2: [gpsd] host = "gpsd host": must be a host name or IP address, such as "127.0.0.1""#
        ),
        (
            "[gpsd]\ndevice = \"ttyACM0\"",
            #"waymark.toml:2: [gpsd] device = "ttyACM0": must be an absolute path, starting with "/""#
        ),
        (
            "[agent]\ndevice_id = \"bus 42\"",
            #"waymark.toml:2: [agent] device_id = "bus 42": must be 1 to 64 characters, each a letter, a digit, ".", "_", "-" or ":""#
        ),
        (
            "[agent]\ndevice_id = \"\"",
            #"waymark.toml:2: [agent] device_id = "": must be 1 to 64 characters, each a letter, a digit, ".", "_", "-" or ":""#
        ),
        (
            "[agent]\nstate_dir = \"var/lib/waymark\"",
            #"waymark.toml:2: [agent] state_dir = "var/lib/waymark": must be an absolute path, starting with "/""#
        ),
        (
            "[location]\ndistance_filter = -1",
            "waymark.toml:2: [location] distance_filter = -1: must be a number of metres from 0 to 100000"
        ),
        (
            "[location]\nmax_fix_age = \"2h\"",
            #"waymark.toml:2: [location] max_fix_age = "2h": must be a duration from "0s" (off) to "1h""#
        ),
        (
            "[location]\nangle_filter = 181",
            "waymark.toml:2: [location] angle_filter = 181: must be a number of degrees from 0 to 180"
        ),
        (
            "[location]\nmode = \"fast\"",
            #"waymark.toml:2: [location] mode = "fast": must be "standard" or "significant_change""#
        ),
        (
            "[location]\ndesired_accuracy = \"nearest_meter\"",
            #"waymark.toml:2: [location] desired_accuracy = "nearest_meter": must be one of "best_for_navigation", "best", "nearest_ten_meters", "hundred_meters", "kilometer", "three_kilometers", or a number of metres from 0.1 to 100000"#
        ),
        (
            "[location]\ndesired_accuracy = 0",
            #"waymark.toml:2: [location] desired_accuracy = 0: must be a number of metres from 0.1 to 100000, or one of "best_for_navigation", "best", "nearest_ten_meters", "hundred_meters", "kilometer", "three_kilometers""#
        ),
        (
            "[heading]\nsource = \"compass\"",
            #"waymark.toml:2: [heading] source = "compass": must be "auto" or "attitude" or "course""#
        ),
        ("[heading]\nenabled = 1", "waymark.toml:2: [heading] enabled = 1: must be true or false, not an integer"),
        (
            "[heading]\nsmoothing = \"2m\"",
            #"waymark.toml:2: [heading] smoothing = "2m": must be a duration from "0s" (off) to "1m""#
        ),
        (
            "[regions]\nflush = \"later\"",
            #"waymark.toml:2: [regions] flush = "later": must be "deferred" or "immediate""#
        ),
        (
            "[regions]\nfile = \"regions.geojson\"",
            #"waymark.toml:2: [regions] file = "regions.geojson": must be an absolute path, starting with "/""#
        ),
        (
            "[places]\nfile = \"places.bin\"",
            #"waymark.toml:2: [places] file = "places.bin": must be an absolute path, starting with "/""#
        ),
        (
            "[metrics]\ntextfile = \"/var/lib/prometheus/node-exporter/waymark.txt\"",
            #"waymark.toml:2: [metrics] textfile = "/var/lib/prometheus/node-exporter/waymark.txt": must be an absolute path ending in .prom"#
        ),
        (
            "[metrics]\ninterval = \"0s\"",
            #"waymark.toml:2: [metrics] interval = "0s": must be a duration more than 0s and at most 1h"#
        ),
        (
            "[health]\nmin_free_bytes = \"lots\"",
            #"waymark.toml:2: [health] min_free_bytes = "lots": must be a size such as "512B", "64KB", "256MB" or "1GB""#
        ),
        (
            "[agent]\nruntime_dir = \"run/waymark\"",
            #"waymark.toml:2: [agent] runtime_dir = "run/waymark": must be an absolute path, starting with "/""#
        ),
        (
            "[places]\nmax_distance = 0",
            "waymark.toml:2: [places] max_distance = 0: must be a number of metres from 1 to 20000000"
        ),
        (
            "[places]\nsite_radius = -1",
            "waymark.toml:2: [places] site_radius = -1: must be a number of metres from 0 to 100000"
        ),
        (
            "[places]\nenabled = \"yes\"",
            #"waymark.toml:2: [places] enabled = "yes": must be true or false, not a string"#
        ),
        // Wrong type
        (
            "[location]\nspeed_delta = \"5\"",
            #"waymark.toml:2: [location] speed_delta = "5": must be a number of metres per second, not a string"#
        ),
        ("[gpsd]\nport = \"2947\"", #"waymark.toml:2: [gpsd] port = "2947": must be an integer, not a string"#),
        ("[gpsd]\nport = 2947.0", "waymark.toml:2: [gpsd] port = 2947.0: must be an integer, not a float"),
        ("[gpsd]\nport = [2947]", "waymark.toml:2: [gpsd] port = [2947]: must be an integer, not an array"),
        ("[gpsd]\nhost = 127", "waymark.toml:2: [gpsd] host = 127: must be a string, not an integer"),
        ("[agent]\nlog_dir = true", "waymark.toml:2: [agent] log_dir = true: must be a string, not a boolean"),
        (
            "[gpsd]\nreconnect_min = 5",
            #"waymark.toml:2: [gpsd] reconnect_min = 5: must be a duration such as "500ms", "5s", "3m" or "2h", not an integer"#
        ),
        // Unknown sections and keys
        (
            "[agnet]",
            "waymark.toml:1: [agnet]: unknown section; allowed sections are agent, gpsd, location, heading, activity, regions, deferred, spool, sinks.file, sinks.traccar, sinks.owntracks, sinks.http, places, metrics, health, beacons, beacons.advertise, fleet, driving"
        ),
        (
            "[gpsd]\nport = 1\n\n[foo.bar]\nx = 1",
            "waymark.toml:4: [foo.bar]: unknown section; allowed sections are agent, gpsd, location, heading, activity, regions, deferred, spool, sinks.file, sinks.traccar, sinks.owntracks, sinks.http, places, metrics, health, beacons, beacons.advertise, fleet, driving"
        ),
        (
            "[gpsd]\n\nhostname = \"gpsd.local\"",
            "waymark.toml:3: [gpsd] hostname: unknown key; allowed keys are host, port, device, reconnect_min, reconnect_max"
        ),
        (
            "[agent]\n\"device id\" = \"x\"",
            #"waymark.toml:2: [agent] "device id": unknown key; allowed keys are device_id, state_dir, log_dir, runtime_dir"#
        ),
        (
            "[gpsd.extra]\nport = 1",
            "waymark.toml:1: [gpsd] extra: unknown key; allowed keys are host, port, device, reconnect_min, reconnect_max"
        ),
        (
            "device_id = \"bus-0042\"\n[agent]",
            "waymark.toml:1: device_id: key outside any section; allowed sections are agent, gpsd, location, heading, activity, regions, deferred, spool, sinks.file, sinks.traccar, sinks.owntracks, sinks.http, places, metrics, health, beacons, beacons.advertise, fleet, driving"
        ),
        (
            "[gpsd]\nreconnect_min = 1979-05-27",
            #"waymark.toml:2: [gpsd] reconnect_min = 1979-05-27: must be a duration such as "500ms", "5s", "3m" or "2h", not a local date"#
        ),
        (
            "[[sinks.file]]\nenabled = true",
            "waymark.toml:1: [sinks] file: a section, to be written as [sinks.file], not an array"
        ),
        ("gpsd = 1", "waymark.toml:1: gpsd: a section, to be written as [gpsd], not an integer"),
        // A syntax error is the only issue
        ("[gpsd]\nport = 2947\nport = 1\n[agnet]", "waymark.toml:3:1: duplicate key port; it is already set at line 2"),
        ("[gpsd]\nport = 2947 2948", #"waymark.toml:2:13: expected the end of the line after the value, found "2""#),
    ])
    func reportsOneLine(text: String, expected: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse(text, fileName: "waymark.toml")
        }
        #expect(error?.issues.count == 1)
        #expect(error?.description == expected)
    }

    @Test func reportsEveryProblemInFileOrder() {
        let text = """
            [gpsd]
            port = 0
            hostname = "gpsd.local"

            [agnet]
            device_id = "bus-0042"

            [agent]
            device_id = "bus 42"
            log_dir = 5

            [gpsd.extra]
            """
        let expected = """
            waymark.toml:2: [gpsd] port = 0: must be an integer from 1 to 65535
            waymark.toml:3: [gpsd] hostname: unknown key; allowed keys are host, port, device, reconnect_min, reconnect_max
            waymark.toml:5: [agnet]: unknown section; allowed sections are agent, gpsd, location, heading, activity, regions, deferred, spool, sinks.file, sinks.traccar, sinks.owntracks, sinks.http, places, metrics, health, beacons, beacons.advertise, fleet, driving
            waymark.toml:9: [agent] device_id = "bus 42": must be 1 to 64 characters, each a letter, a digit, ".", "_", "-" or ":"
            waymark.toml:10: [agent] log_dir = 5: must be a string, not an integer
            waymark.toml:12: [gpsd] extra: unknown key; allowed keys are host, port, device, reconnect_min, reconnect_max
            """
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse(text, fileName: "waymark.toml")
        }
        #expect(error?.issues.map(\.line) == [2, 3, 5, 9, 10, 12])
        #expect(error?.description == expected)
    }

    @Test func anIssueKeepsItsParts() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse("[gpsd]\nport = -5", fileName: "custom.toml")
        }
        let expected = ConfigurationIssue(
            file: "custom.toml",
            line: 2,
            section: "gpsd",
            key: "port",
            value: "-5",
            message: "must be an integer from 1 to 65535"
        )
        #expect(error?.issues == [expected])
    }

    @Test func anIssueShortensALongValue() {
        let issue = ConfigurationIssue(
            file: "waymark.toml",
            line: 4,
            section: "gpsd",
            key: "device",
            value: "\"" + String(repeating: "x", count: 100) + "\"",
            message: "must be an absolute path, starting with \"/\""
        )
        let shortened = "\"" + String(repeating: "x", count: 56) + "..."
        #expect(
            issue.description
                == "waymark.toml:4: [gpsd] device = \(shortened): must be an absolute path, starting with \"/\""
        )
    }
}
