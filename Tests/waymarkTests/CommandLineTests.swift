import Foundation
import Testing
import WaymarkTestSupport

@Suite("The waymark command line")
struct CommandLineTests {
    @Test("--help for every command", arguments: [[], ["run"], ["replay"], ["check-config"]])
    func help(command: [String]) throws {
        let result = try WaymarkBinary.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: waymark"))
    }

    @Test("replay --help says where gpsd is looked for, and the time a planned route starts at, as replay does")
    func replayHelp() throws {
        let help = try WaymarkBinary.run(["replay", "--help"]).stdout.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        #expect(help.contains("the first of /usr/sbin/gpsd, /usr/local/sbin/gpsd and gpsd in PATH"), "\(help)")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let route = directory.appendingPathComponent("route.gpx")
        try #"<gpx version="1.1"><rte><rtept lat="48.0" lon="11.0"/><rtept lat="48.01" lon="11.0"/></rte></gpx>"#
            .write(to: route, atomically: true, encoding: .utf8)
        let replay = try WaymarkBinary.run(["replay", route.path, "--route-speed", "50", "--print"])
        let first = try #require(try WaymarkBinary.events(replay).first?["time"] as? String, "\(replay.stderr)")
        #expect(help.contains("from \(first.prefix(10))T00:00:00Z on"), "first event at \(first): \(help)")
    }

    @Test func version() throws {
        let result = try WaymarkBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("waymark 0.1.0 (libgps API 11.0)"))
    }

    @Test("check-config names file, line, key and what is allowed, one line each, exit 2")
    func checkConfigErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waymark.toml").path
        try """
        [agent]
        device_id = "truck-17"
        colour = "red"

        [gpsd]
        host = 127
        port = -5
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WaymarkBinary.run(["check-config", path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("waymark.toml:3: [agent] colour: unknown key") == true)
        #expect(lines.dropFirst().first?.hasPrefix("waymark.toml:6: [gpsd] host = 127: must be") == true)
        #expect(lines.last?.hasPrefix("waymark.toml:7: [gpsd] port = -5: must be") == true)
    }

    @Test("check-config accepts the documented example")
    func checkConfigExample() throws {
        let result = try WaymarkBinary.run([
            "check-config", Fixtures.packageRoot.appendingPathComponent("config/waymark.toml").path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
    }

    @Test("run --for 5s without gpsd: an error event, retries, exit 0")
    func runWithoutGPSD() throws {
        let port = try GPSDTestServer.freePort()
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        try Fixtures.isolatedSections(in: directory).write(toFile: config, atomically: true, encoding: .utf8)
        let started = Date()
        let result = try WaymarkBinary.run(
            ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(port)", "--for", "5s"],
            timeout: 30
        )
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(elapsed >= 5 && elapsed < 15)
        let events = try WaymarkBinary.events(result)
        let errors = events.filter { $0["type"] as? String == "error" }
        #expect(errors.count == 1, "one error per outage, not one per retry")
        #expect(errors.first?["code"] as? String == "gpsd_unavailable")
        #expect((errors.first?["message"] as? String)?.contains("127.0.0.1:\(port)") == true)
        #expect(events.map { $0["seq"] as? Int } == Array(1..<events.count + 1).map { $0 })
        // 1 + 2 + 4 s of backoff fit in 5 s: at least three attempts were logged.
        #expect(result.stderr.components(separatedBy: "unavailable").count - 1 >= 1)
    }

    @Test("--gpsd and --for reject what they cannot parse")
    func badArguments() throws {
        for arguments in [
            ["run", "--gpsd", "host:99999"], ["run", "--for", "soon"], ["replay", "x", "--speed", "0"],
            ["replay", "x", "--decoder", "fast"],
        ] {
            let result = try WaymarkBinary.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("Error"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("replay --print of a capture: JSON Lines, seq from 1, locations at GPS time")
    func replayCapture() throws {
        let result = try WaymarkBinary.run(["replay", "--print", Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let events = try WaymarkBinary.events(result)
        let locations = events.filter { $0["type"] as? String == "location" }
        #expect(locations.count == 774)
        #expect(locations.first?["time"] as? String == "2029-11-25T16:57:44.000Z")
        #expect(events.map { $0["seq"] as? Int } == Array(1..<events.count + 1).map { $0 })
        #expect(result.stderr.contains("location=774"))
        #expect(!result.stdout.contains("null") && !result.stdout.contains("nan"))
    }

    @Test("replay decodes with the builtin decoder by default, and writes the same bytes as --decoder libgps")
    func replayBuiltinDecoder() throws {
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let libgps = try WaymarkBinary.run(["replay", "--print", "--decoder", "libgps", capture])
        let builtin = try WaymarkBinary.run(["replay", "--print", capture])
        #expect(builtin.status == 0, "stderr: \(builtin.stderr)")
        // 777 events of the pipeline, and the drive's 8 driving events (docs/driving.md, "The real drives").
        #expect(try WaymarkBinary.events(builtin).count == 785)
        #expect(builtin.stdout == libgps.stdout)
        // The counts of what was delivered and rejected (log lines before them carry the wall clock).
        func summary(_ stderr: String) -> [Substring] {
            stderr.split(separator: "\n").filter { $0.hasPrefix("replay ") }
        }
        #expect(summary(builtin.stderr) == summary(libgps.stderr))
        #expect(summary(libgps.stderr).count == 1)
    }

    @Test("a reader that closes the pipe early does not kill the agent (no SIGPIPE)")
    func closedPipe() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WaymarkBinary.path)
        process.arguments = ["replay", "--print", Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")]
        process.environment = try WaymarkBinary.isolated(in: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try pipe.fileHandleForReading.close()
        try process.run()
        while process.isRunning { usleep(10_000) }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test("replay of a missing file fails with the path")
    func replayMissingFile() throws {
        let result = try WaymarkBinary.run(["replay", "/nonexistent/drive.log"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/drive.log"))
    }
}

/// What a new user typed wrong: each is told what is wrong, with the usage of the command they ran.
@Suite("Command-line mistakes")
struct CommandLineMistakeTests {
    static let mistakes: [(arguments: [String], message: String, usage: String)] = [
        (["run", "--for", "soon"], "--for soon: expected a duration", "Usage: waymark run "),
        (["run", "--gpsd", "host:99999"], "--gpsd host:99999: expected HOST", "Usage: waymark run "),
        (
            ["trips", "list", "--since", "yesterday"], "--since yesterday: expected an ISO 8601",
            "Usage: waymark trips list "
        ),
        (["spool", "export", "--format", "xml"], "--format xml: expected jsonl", "Usage: waymark spool export "),
        (
            ["spool", "export", "--format", "jsonl", "--from", "10", "--to", "5"],
            "--from 10 --to 5: the first seq is after the last", "Usage: waymark spool export "
        ),
        (["replay", "x", "--speed", "-2"], "--speed -2.0: must be a number greater than 0", "Usage: waymark replay "),
        (["replay", "x", "--speed", "0"], "--speed 0.0: must be a number greater than 0", "Usage: waymark replay "),
        (
            ["replay", "x", "--route-speed", "1e-9"], "--route-speed 1e-09: must be a speed from 1 to 1000 km/h",
            "Usage: waymark replay "
        ),
    ]

    @Test("a bad value: exit 64, what is wrong, and that command's usage", arguments: 0..<mistakes.count)
    func badValue(index: Int) throws {
        let mistake = Self.mistakes[index]
        let result = try WaymarkBinary.run(mistake.arguments)
        #expect(result.status == 64, "\(mistake.arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Error: \(mistake.message)") == true, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix(mistake.usage) == true, "\(result.stderr)")
    }

    @Test("--since takes a date alone, as its midnight UTC")
    func sinceDate() throws {
        let workspace = try DurabilityTests.Workspace()
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        #expect(try WaymarkBinary.run(["replay", capture, "--spool", "--config", workspace.config]).status == 0)
        let all = try WaymarkBinary.run(["trips", "list", "--config", workspace.config, "--since", "2029-11-25"])
        let none = try WaymarkBinary.run(["trips", "list", "--config", workspace.config, "--since", "2029-11-26"])
        #expect(all.status == 0 && none.status == 0, "\(all.stderr)\(none.stderr)")
        #expect(all.stdoutLines.count == 2 && none.stdoutLines.count == 1, "\(all.stdout)\(none.stdout)")
    }

    @Test("the help lists the log levels once, critical included, and every reason a trip ends")
    func help() throws {
        let run = try WaymarkBinary.run(["run", "--help"])
        let levels = run.stdout.replacingOccurrences(of: "\n", with: " ").components(separatedBy: "trace,")
        #expect(levels.count == 2 && run.stdout.contains("critical"), "\(run.stdout)")
        let trips = try WaymarkBinary.run(["trips", "list", "--help"])
        for reason in ["stationary", "no_fix", "shutdown", "interrupted"] {
            #expect(trips.stdout.contains(reason), "\(reason)")
        }
    }
}
