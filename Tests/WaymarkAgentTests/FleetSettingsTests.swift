import Foundation
import Testing

@testable import WaymarkAgent

/// `[fleet]`: its keys, its defaults, and one line per problem naming the file, the line and the key.
@Suite struct FleetSettingsTests {
    @Test func theDefaultsAreOffAMinuteAndAQuarterOfAnHour() throws {
        let settings = try Configuration.parse("", fileName: "waymark.toml").fleet
        #expect(!settings.enabled)
        #expect(settings.statusInterval == .seconds(60))
        #expect(settings.statusRefresh == .seconds(900))
    }

    @Test func aBoardWithTheSinksBrokerReadsIt() throws {
        let text = """
            [sinks.owntracks]
            host = "mqtt.example"
            [fleet]
            enabled = true
            status_interval = "30s"
            status_refresh = "0s"
            """
        let settings = try Configuration.parse(text, fileName: "waymark.toml").fleet
        #expect(settings.enabled)
        #expect(settings.statusInterval == .seconds(30))
        #expect(settings.statusRefresh == .zero)
    }

    @Test(arguments: [
        (
            "[fleet]\nenabled = true\n",
            "waymark.toml:2: [fleet] enabled: missing [sinks.owntracks] host: the fleet's status goes to the "
                + "OwnTracks sink's broker, with its topic and credentials, whether the sink is enabled or not"
        ),
        (
            "[fleet]\nstatus_interval = \"0s\"\n",
            "waymark.toml:2: [fleet] status_interval = \"0s\": must be a duration more than 0s and at most 1d"
        ),
        (
            "[fleet]\nstatus_interval = 60\n",
            "waymark.toml:2: [fleet] status_interval = 60: must be a duration such as \"500ms\", \"5s\", \"3m\" "
                + "or \"2h\", not an integer"
        ),
        (
            "[fleet]\nstatus_interval = \"10m\"\nstatus_refresh = \"5m\"\n",
            "waymark.toml:3: [fleet] status_refresh = \"5m\": must be at least status_interval (10m)"
        ),
        (
            "[fleet]\nenabled = \"yes\"\n",
            "waymark.toml:2: [fleet] enabled = \"yes\": must be true or false, not a string"
        ),
        (
            "[fleet]\naccept = [\"reboot\"]\n",
            "waymark.toml:2: [fleet] accept = [\"reboot\"]: must hold only command names: \"reportLocation\", "
                + "\"setWaypoints\", \"clearWaypoints\", \"waypoints\", \"dump\", \"setConfiguration\""
        ),
    ])
    func aProblemIsOneLineNamingItsKey(text: String, expected: String) {
        #expect(configurationProblem(text) == expected)
    }

    @Test func checkConfigReadsTheSinksFilesForTheFleetWithTheSinkOff() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waymark.toml").path
        try """
        [places]
        enabled = false
        [sinks.owntracks]
        host = "mqtt.example"
        password_file = "\(directory.path)/no-such-password"
        [fleet]
        enabled = true
        """.write(toFile: path, atomically: true, encoding: .utf8)
        var issues: [ConfigurationIssue] = []
        do {
            _ = try Agent.checkConfiguration(path)
        } catch {
            issues = error.issues
        }
        #expect(issues.count == 1)
        #expect(issues.first?.line == 5)
        #expect(issues.first?.key == "password_file")
    }
}
