import Foundation
import Testing
import WaymarkTestSupport

/// Issue 16: under systemd, stderr is a stream to journald and `$JOURNAL_STREAM` names it; each line then carries
/// its syslog priority and no time of its own.
@Suite("diagnostics for the journal")
struct JournalOutputTests {
    /// Runs waymark with stderr to a file of its own and `JOURNAL_STREAM` naming that file (or, with
    /// `otherFile`, another one, as when a script redirected stderr); returns the exit status and stderr.
    static func run(_ arguments: [String], otherFile: Bool = false) throws -> (status: Int32, stderr: String) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errPath = directory.appendingPathComponent("stderr").path
        let otherPath = directory.appendingPathComponent("other").path
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        _ = FileManager.default.createFile(atPath: otherPath, contents: nil)
        var named = stat()
        guard stat(otherFile ? otherPath : errPath, &named) == 0 else { throw TestServerError("stat: errno \(errno)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WaymarkBinary.path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = "\(named.st_dev):\(named.st_ino)"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? standardError.close() }
        process.standardError = standardError
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOfFile: errPath, encoding: .utf8))
    }

    static func config(_ text: String) throws -> (URL, String) {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("waymark.toml").path
        try (Fixtures.isolatedSections(in: directory, besides: text) + text).write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        return (directory, path)
    }

    @Test("a broken configuration: exit 2 and one error line naming file, line and key")
    func brokenConfiguration() throws {
        let (directory, path) = try Self.config("[gpsd]\nport = 0\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run(["run", "--config", path])
        #expect(result.status == 2)
        let line = try #require(Fixtures.line("port = 0", inFile: path))
        #expect(result.stderr == "<3>waymark.toml:\(line): [gpsd] port = 0: must be an integer from 1 to 65535\n")
    }

    @Test("the agent's lines carry their priority and no time; on another stream they stay as on a terminal")
    func agentLines() throws {
        let port = try GPSDTestServer.freePort()
        let (directory, path) = try Self.config("[gpsd]\nreconnect_min = \"1s\"\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["run", "--config", path, "--gpsd", "127.0.0.1:\(port)", "--for", "2s"]
        let journal = try Self.run(arguments)
        #expect(journal.status == 0)
        let lines = journal.stderr.split(separator: "\n")
        #expect(lines.count >= 3, "\(journal.stderr)")
        #expect(lines.allSatisfy { $0.wholeMatch(of: /<[2-7]>[^<].*/) != nil }, "\(journal.stderr)")
        #expect(
            journal.stderr.firstMatch(of: /\d{4}-\d\d-\d\dT\d\d:/) == nil,
            "a line carries a time: \(journal.stderr)"
        )
        #expect(lines.contains { $0.hasPrefix("<4>gpsd at 127.0.0.1:\(port) is unavailable: ") }, "\(journal.stderr)")
        #expect(lines.contains { $0.hasPrefix("<6>watching gpsd") }, "\(journal.stderr)")

        let redirected = try Self.run(arguments, otherFile: true)
        #expect(redirected.status == 0)
        let plain = redirected.stderr.split(separator: "\n")
        #expect(!plain.isEmpty && plain.allSatisfy { !$0.hasPrefix("<") }, "\(redirected.stderr)")
        #expect(
            plain.contains { $0.contains(" warning waymark:") && $0.contains("is unavailable") },
            "\(redirected.stderr)"
        )
    }
}
