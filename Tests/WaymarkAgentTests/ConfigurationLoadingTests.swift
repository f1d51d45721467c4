import Foundation
import Testing
import WaymarkFormats

@testable import WaymarkAgent

@Suite struct ConfigurationLoadingTests {
    /// `config/waymark.toml` in this package, found from this file's path.
    private static let examplePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WaymarkAgentTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("config/waymark.toml")
        .path

    @Test func theExampleFileLoadsAndGivesTheDefaults() throws {
        #expect(try Configuration.load(contentsOf: Self.examplePath) == Configuration())
    }

    @Test func theExampleFileDocumentsEveryKeyOfEverySection() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for section in Configuration.sections {
            #expect(lines.contains("[\(section.name)]"), "[\(section.name)] is missing")
            var reader = SectionReader(file: "waymark.toml", section: section.name, table: TOMLTable())
            var configuration = Configuration()
            section.read(&reader, &configuration)
            for key in reader.allowedKeys {
                let documented = lines.contains { $0.hasPrefix("\(key) = ") || $0.hasPrefix("# \(key) = ") }
                #expect(documented, "[\(section.name)] \(key) is not in config/waymark.toml")
            }
        }
    }

    @Test func issuesNameTheFileByItsLastPathComponent() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/custom.toml"
            try Data("[gpsd]\n\nport = 0\n".utf8).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: ConfigurationError.self) {
                try Configuration.load(contentsOf: path)
            }
            #expect(error?.description == "custom.toml:3: [gpsd] port = 0: must be an integer from 1 to 65535")
        }
    }

    @Test func aMissingFileIsOneIssueNamingThePathAndTheReason() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(contentsOf: "/nonexistent/waymark.toml")
        }
        #expect(error?.description == "/nonexistent/waymark.toml: cannot read the file: No such file or directory")
    }

    @Test func aDirectoryIsOneIssueNamingThePathAndTheReason() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: ConfigurationError.self) {
                try Configuration.load(contentsOf: directory)
            }
            #expect(error?.description == "\(directory): cannot read the file: Is a directory")
        }
    }

    @Test func aFileThatIsNotUTF8IsOneIssueWithItsLine() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/waymark.toml"
            let bytes = Array("[agent]\n# ok\ndevice_id = \"bus-".utf8) + [0xFF, 0xFE] + Array("\"\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: ConfigurationError.self) {
                try Configuration.load(contentsOf: path)
            }
            #expect(error?.description == "waymark.toml:3: the file is not UTF-8 text")
        }
    }

    @Test func aFileOverOneMebibyteIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/waymark.toml"
            let comment = Array(repeating: UInt8(ascii: "#"), count: Configuration.maximumFileSize + 1)
            try Data(comment).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: ConfigurationError.self) {
                try Configuration.load(contentsOf: path)
            }
            #expect(
                error?.description
                    == "\(path): cannot read the file: it is larger than 1 MiB, too large for a configuration file"
            )
        }
    }

    /// Runs `body` with the path of a new, empty directory, and removes the directory afterwards.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("waymark-configuration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }
}
