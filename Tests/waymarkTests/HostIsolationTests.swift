import Foundation
import Testing
import WaymarkTestSupport

/// The tests run on developer machines where the Debian package may be installed: no test's agent may read
/// what it installs or keeps (`/etc/waymark`, `/usr/share/waymark`, `/var/lib/waymark`, `/var/log/waymark`,
/// `/run/waymark`), or its results would change with the machine. Watched with `strace` on the file system calls
/// of the binary as the tests run it (`WaymarkBinary`, `Fixtures.isolatedSections`).
@Suite("No test reads the board's installed files")
struct HostIsolationTests {
    static let boardDirectories =
        ["/etc/waymark", "/usr/share/waymark", "/var/lib/waymark", "/var/log/waymark"]
        + ["/run/waymark"]

    /// The paths under the board's directories that the traced process named in a file system call.
    static func boardPaths(inTrace path: URL) throws -> [String] {
        let trace = try String(contentsOf: path, encoding: .utf8)
        return trace.split(separator: "\n").filter { line in
            boardDirectories.contains { line.contains("\"\($0)/") || line.contains("\"\($0)\"") }
        }
        .map(String.init)
    }

    static var strace: String? {
        ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.fileExists(atPath: $0) }
    }

    @Test("a command given no --config: a replay, the status, a place")
    func commandsWithoutConfiguration() throws {
        let strace = try #require(Self.strace, "strace is missing (scripts/install-deps.sh --tests)")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let commands = [["replay", capture, "--print"], ["status"], ["geo", "place", "49.0", "12.1"]]
        for (index, command) in commands.enumerated() {
            let trace = directory.appendingPathComponent("\(index).trace")
            let result = try WaymarkBinary.run(
                ["-f", "-e", "trace=%file", "-o", trace.path, WaymarkBinary.path] + command,
                executable: strace
            )
            let traced = try String(contentsOf: trace, encoding: .utf8)
            #expect(traced.contains("execve(\"\(WaymarkBinary.path)\""), "\(command): \(result.stderr)")
            #expect(try Self.boardPaths(inTrace: trace) == [], "waymark \(command.joined(separator: " "))")
        }
    }

    @Test("an agent of LiveRun's making, through a real gpsd, with its spool and logs")
    func liveAgent() throws {
        let tracer = try #require(Self.strace, "strace is missing (scripts/install-deps.sh --tests)")
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let directory = try Fixtures.temporaryDirectory()
        defer {
            gpsd.stop()
            gpsd.removeFiles()
            try? FileManager.default.removeItem(at: directory)
        }
        let config = directory.appendingPathComponent("waymark.toml").path
        let settings = "[activity]\npause_after = \"30s\"\n"
        try (Fixtures.isolatedSections(in: directory, besides: settings) + settings).write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        let trace = directory.appendingPathComponent("run.trace")
        let agent = try WaymarkBinary.start(
            ["-f", "-e", "trace=%file", "-o", trace.path, WaymarkBinary.path]
                + ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"],
            executable: tracer
        )
        try agent.wait(seconds: 120, "the end of the drive") { agent.stdout.contains("\"code\":\"no_device\"") }
        // strace holds off the signals meant for what it traces: the agent itself is stopped.
        let strace = agent.process.processIdentifier
        let children = try String(contentsOfFile: "/proc/\(strace)/task/\(strace)/children", encoding: .utf8)
        let waymark = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        kill(waymark, SIGINT)
        try agent.wait(seconds: 20, "the agent's stop") { !agent.process.isRunning }
        #expect(agent.process.terminationStatus == 0, "\(agent.stderr)")
        #expect(agent.stdout.contains("\"type\":\"trip\""), "the drive made a trip, whose places were looked up")
        #expect(try Self.boardPaths(inTrace: trace) == [])
    }
}
