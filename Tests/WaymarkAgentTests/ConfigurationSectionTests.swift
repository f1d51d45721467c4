import Testing
import WaymarkFormats

@testable import WaymarkAgent

/// The reading of sections within sections, such as `[sinks.file]`, with a registry made for the test.
@Suite struct ConfigurationSectionTests {
    private static let sections = [
        Configuration.sections[0],
        ConfigurationSection("sinks.file") { section, configuration in
            section.read("directory", .absolutePath, into: &configuration.agent.logDirectory)
        },
    ]

    @Test func readsASectionWithinASection() throws {
        let text = "[sinks]\n[sinks.file]\ndirectory = \"/data/logs\""
        let (configuration, issues) = try read(text)
        #expect(issues == [])
        #expect(configuration.agent.logDirectory == "/data/logs")
    }

    @Test(arguments: [
        (
            "[sinks.file]\ndirectory = \"logs\"",
            #"waymark.toml:2: [sinks.file] directory = "logs": must be an absolute path, starting with "/""#
        ),
        (
            "[sinks.file]\ndirectroy = \"/data/logs\"",
            "waymark.toml:2: [sinks.file] directroy: unknown key; allowed keys are directory"
        ),
        (
            "[sinks]\nenabled = true",
            "waymark.toml:2: [sinks] enabled: unknown key; [sinks] holds only the sections sinks.file"
        ),
        ("[sinks.fiel]", "waymark.toml:1: [sinks.fiel]: unknown section; allowed sections are agent, sinks.file"),
        ("[snks.file]", "waymark.toml:1: [snks.file]: unknown section; allowed sections are agent, sinks.file"),
        ("[snks]\n[snks.file]", "waymark.toml:1: [snks]: unknown section; allowed sections are agent, sinks.file"),
        ("[sinks.file.extra]", "waymark.toml:1: [sinks.file] extra: unknown key; allowed keys are directory"),
        (
            "[agent]\nsinks = 1",
            "waymark.toml:2: [agent] sinks: unknown key; allowed keys are device_id, state_dir, log_dir, runtime_dir"
        ),
    ])
    func reportsOneLine(text: String, expected: String) throws {
        let (_, issues) = try read(text)
        #expect(issues.map(\.description) == [expected])
    }

    private func read(_ text: String) throws -> (Configuration, [ConfigurationIssue]) {
        let document = try TOMLDocument(parsing: text, fileName: "waymark.toml")
        return Configuration.settings(in: document.root, file: "waymark.toml", sections: Self.sections)
    }
}
