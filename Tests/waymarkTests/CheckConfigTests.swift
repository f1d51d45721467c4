import Foundation
import Testing
import WaymarkTestSupport

/// Issue 36: `waymark check-config` reads every file the configuration names that the agent reads at start, as
/// the agent reads it, and says what is wrong with each in the configuration's line format, exit status 2.
@Suite("check-config reads the files the configuration names")
struct CheckConfigTests {
    /// The documented example region file (config/regions.geojson).
    static let exampleRegions = Fixtures.packageRoot.appendingPathComponent("config/regions.geojson")

    /// A directory with `waymark.toml` holding `text`; removed when the test ends.
    final class Workspace {
        let directory: URL
        let config: String

        init(_ text: (URL) -> String) throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            try text(directory).write(toFile: config, atomically: true, encoding: .utf8)
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func check() throws -> WaymarkBinary.Result { try WaymarkBinary.run(["check-config", config]) }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test("a truncated region file: its problem on the key's line, what the agent would do, exit 2")
    func truncatedRegionFile() throws {
        let workspace = try Workspace { directory in
            "[agent]\ndevice_id = \"truck-17\"\n\n[regions]\nfile = \"\(directory.path)/regions.geojson\"\n"
        }
        let whole = try Data(contentsOf: Self.exampleRegions)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: workspace.path("regions.geojson")))
        let result = try workspace.check()
        #expect(result.status == 2, "stdout: \(result.stdout)")
        #expect(!result.stdout.contains("valid"))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "one problem, then the rejection: \(result.stderr)")
        let prefix = "waymark.toml:5: [regions] file: \(workspace.path("regions.geojson")):"
        #expect(lines.first?.hasPrefix(prefix) == true, "\(lines)")
        #expect(
            lines.last
                == "waymark.toml:5: [regions] file: \(workspace.path("regions.geojson")) rejected: the agent "
                + "would monitor none of its regions (alarm region_file_rejected); fix the problem above, or leave "
                + "the key out to monitor no regions"
        )
    }

    @Test("every feature is checked as the agent checks it: a radius and a duplicate id, one line each")
    func everyFeature() throws {
        let workspace = try Workspace { directory in "[regions]\nfile = \"\(directory.path)/regions.geojson\"\n" }
        let text = try String(contentsOf: Self.exampleRegions, encoding: .utf8)
            .replacingOccurrences(of: "\"radius\": 150", with: "\"radius\": -5")
            .replacingOccurrences(of: "\"id\": \"yard-east\"", with: "\"id\": \"depot\"")
        try text.write(toFile: workspace.path("regions.geojson"), atomically: true, encoding: .utf8)
        let result = try workspace.check()
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("waymark.toml:2: [regions] file") }, "\(lines)")
        #expect(lines.contains { $0.contains("properties.radius = -5") }, "\(lines)")
        #expect(lines.contains { $0.contains("features[1]") && $0.contains("depot") }, "\(lines)")
        #expect(lines.last?.contains("fix the 2 problems above") == true)
    }

    @Test("a missing region file, and one over max_regions as the agent limits it")
    func missingAndLimits() throws {
        let missing = try Workspace { directory in "[regions]\nfile = \"\(directory.path)/none.geojson\"\n" }
        let result = try missing.check()
        #expect(result.status == 2)
        #expect(result.stderr.contains("[regions] file: \(missing.path("none.geojson")): cannot open: No such file"))

        // Regions over a limit are refused one by one, and the others monitored: the agent starts with them, so
        // the file is valid.
        let limited = try Workspace { directory in
            "[regions]\nfile = \"\(directory.path)/regions.geojson\"\nmax_regions = 1\n"
        }
        try FileManager.default.copyItem(atPath: Self.exampleRegions.path, toPath: limited.path("regions.geojson"))
        let checked = try limited.check()
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test("the gazetteer: damaged is a problem; the default one not installed is a note; disabled is not read")
    func places() throws {
        let damaged = try Workspace { directory in "[places]\nfile = \"\(directory.path)/places.bin\"\n" }
        try Data("not a gazetteer at all, but a text file of some length\n".utf8).write(
            to: URL(fileURLWithPath: damaged.path("places.bin"))
        )
        let result = try damaged.check()
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("waymark.toml:2: [places] file: \(damaged.path("places.bin")): ") == true)
        #expect(lines.first?.contains("the agent would name trips and pauses after the sites only") == true, "\(lines)")

        let disabled = try Workspace { directory in
            "[places]\nenabled = false\nfile = \"\(directory.path)/places.bin\"\n"
        }
        #expect(try disabled.check().status == 0)

        // The default file comes with the optional package waymark-places: without it the agent names the sites.
        let defaultFile = "/usr/share/waymark/places.bin"
        if !FileManager.default.fileExists(atPath: defaultFile) {
            let unset = try Workspace { _ in "[places]\nmax_distance = 1000\n" }
            let checked = try unset.check()
            #expect(checked.status == 0, "\(checked.stderr)")
            #expect(checked.stdout.contains("[places] file \(defaultFile) is not installed (package waymark-places)"))
        }
    }

    @Test("a real gazetteer cut short is refused by its own checks")
    func truncatedGazetteer() throws {
        let built = try PlacesFixture.file.get()
        let workspace = try Workspace { directory in "[places]\nfile = \"\(directory.path)/places.bin\"\n" }
        let whole = try Data(contentsOf: URL(fileURLWithPath: built))
        try whole.prefix(whole.count - 4096).write(to: URL(fileURLWithPath: workspace.path("places.bin")))
        let result = try workspace.check()
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("waymark.toml:2: [places] file: \(workspace.path("places.bin")): "))
        try FileManager.default.removeItem(atPath: workspace.path("places.bin"))
        try FileManager.default.copyItem(atPath: built, toPath: workspace.path("places.bin"))
        #expect(try workspace.check().status == 0)
    }

    @Test("the enabled sinks' password and certificate files must be readable; a disabled sink's are not read")
    func sinkFiles() throws {
        let workspace = try Workspace { directory in
            """
            [sinks.owntracks]
            enabled = true
            host = "127.0.0.1"
            password_file = "\(directory.path)/password"
            ca_file = "\(directory.path)/ca.pem"

            [sinks.http]
            enabled = true
            url = "https://fleet.example/events"
            ca_file = "\(directory.path)"

            [sinks.traccar]
            url = "http://fleet.example:5055/"
            ca_file = "\(directory.path)/traccar-ca.pem"
            """
        }
        try "secret\n".write(toFile: workspace.path("password"), atomically: true, encoding: .utf8)
        let result = try workspace.check()
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "waymark.toml:5: [sinks.owntracks] ca_file: cannot open \(workspace.path("ca.pem")): No such file"
            ) == true,
            "\(lines)"
        )
        #expect(lines.first?.contains("the owntracks sink could not start or connect") == true)
        #expect(
            lines.last?.hasPrefix("waymark.toml:10: [sinks.http] ca_file: cannot read \(workspace.directory.path)")
                == true,
            "a directory is no file: \(lines)"
        )
        #expect(!result.stderr.contains("traccar"), "the disabled sink's file is not read")
        // Present and readable: valid (what the server's certificate is, only a connection tells).
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: workspace.path("ca.pem"), atomically: true, encoding: .utf8)
        let text = try String(contentsOfFile: workspace.config, encoding: .utf8)
        try text.replacingOccurrences(of: "ca_file = \"\(workspace.directory.path)\"\n", with: "")
            .write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let fixed = try workspace.check()
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }
}
