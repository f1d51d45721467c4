import Foundation
import Testing
import WaymarkTestSupport

/// A state or log directory the agent cannot create or write is a configuration error at start: exit status
/// 2 and one line naming the setting, the directory and what the system said, not a run that keeps nothing.
@Suite("Unusable directories at start")
struct UnusableDirectoryTests {
    /// A configuration in a fresh directory every user may read, with `settings` after `[agent]`'s lines, and a
    /// runtime directory of its own there that every user may write: agents of tests running side by side never
    /// share `/run/waymark`, whose lock lets only one run.
    static func config(_ agent: String, _ settings: String = "") throws -> (directory: URL, path: String) {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let runtime = directory.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: runtime)
        let path = directory.appendingPathComponent("waymark.toml").path
        try "[agent]\nruntime_dir = \"\(runtime)\"\n\(agent)\n\(settings)".write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        return (directory, path)
    }

    static func expectRefusal(_ result: WaymarkBinary.Result, naming setting: String, _ reason: String) {
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(setting) && lines[0].contains(reason), "\(result.stderr)")
    }

    @Test("a state_dir below a file: run and replay --spool are refused; replay without --spool runs")
    func notADirectory() throws {
        let (directory, _) = try Self.config("")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let (other, config) = try Self.config("state_dir = \"\(file)/state\"\nlog_dir = \"\(directory.path)/logs\"")
        defer { try? FileManager.default.removeItem(at: other) }
        let closed = try GPSDTestServer.freePort()
        let run = try WaymarkBinary.run(["run", "--config", config, "--gpsd", "127.0.0.1:\(closed)", "--for", "5s"])
        Self.expectRefusal(run, naming: "[agent] state_dir = \"\(file)/state\"", "Not a directory")
        let capture = Fixtures.gpsdLog("hemi.log.chk")
        Self.expectRefusal(
            try WaymarkBinary.run(["replay", capture, "--spool", "--config", config]),
            naming: "[agent] state_dir",
            "Not a directory"
        )
        #expect(try WaymarkBinary.run(["replay", capture, "--config", config]).status == 0)
    }

    /// Root may write anywhere: the agent runs as `nobody` (`runuser`, as root) under a directory of root's.
    @Test(
        "a log_dir the agent's user may not create in is refused; with the file sink off it is not needed",
        .enabled(if: getuid() == 0, "needs root to run the agent as another user")
    )
    func permissionDenied() throws {
        let (directory, _) = try Self.config("")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: state)
        let logs = directory.appendingPathComponent("logs").path
        let agent = "state_dir = \"\(state)\"\nlog_dir = \"\(logs)\""
        let closed = try GPSDTestServer.freePort()
        func runAsNobody(_ config: String) throws -> WaymarkBinary.Result {
            try WaymarkBinary.run(
                [
                    "-u", "nobody", "--", WaymarkBinary.path, "run", "--config", config, "--gpsd",
                    "127.0.0.1:\(closed)",
                    "--for", "1s",
                ],
                executable: "/usr/sbin/runuser"
            )
        }
        let (withSink, sinkConfig) = try Self.config(agent)
        defer { try? FileManager.default.removeItem(at: withSink) }
        Self.expectRefusal(try runAsNobody(sinkConfig), naming: "[agent] log_dir = \"\(logs)\"", "Permission denied")
        let (withoutSink, plainConfig) = try Self.config(agent, "[sinks.file]\nenabled = false\n")
        defer { try? FileManager.default.removeItem(at: withoutSink) }
        let result = try runAsNobody(plainConfig)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
