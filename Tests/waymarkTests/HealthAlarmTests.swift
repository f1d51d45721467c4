import Foundation
import Testing
import WaymarkTestSupport

/// Issue 17: each health alarm raised and cleared by real conditions on a live agent and a real gpsd — an
/// `error` event with the alarm's code, an entry in `waymark status`, then `alarm_cleared`.
@Suite("Health alarms from real conditions")
struct HealthAlarmTests {
    static let drive = Fixtures.gpsdLog("20100411_Geko_Regensburg.log")

    /// `count` one-second epochs of a receiver that tracks no satellite: GGA quality 0 and RMC status V.
    static func noFixEpochs(_ count: Int) -> NMEALog {
        func sentence(_ body: String) -> String {
            let unsummed = "$" + body + "*"
            return unsummed + NMEASentence.checksum(of: unsummed)
        }
        let lines = (0..<count).flatMap { second -> [String] in
            let time = String(format: "1200%02d.00", second % 60)
            return [sentence("GPGGA,\(time),,,,,0,00,,,M,,M,,"), sentence("GPRMC,\(time),V,,,,,,,241126,,,N")]
        }
        return NMEALog(lines: lines)
    }

    /// Waits for the alarm in `waymark status` (its `error` event may wait for the first fix to be dated), runs
    /// `clear`, then waits for its `alarm_cleared` event and for status to drop it; the `error` event came once.
    static func raiseAndClear(
        _ run: OperatedRun,
        _ code: String,
        within seconds: Double = 40,
        clear: () throws -> Void = {}
    ) throws {
        let status = try run.waitForStatus(seconds: seconds, "the \(code) alarm in status") { status in
            (status["alarms"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == code }
        }
        let alarm = (status["alarms"] as? [[String: Any]])?.first { $0["code"] as? String == code }
        #expect(alarm?["message"] is String && alarm?["since"] is String, "\(status)")
        try run.agent.wait(seconds: seconds, "the \(code) error event") { !run.events("error", code: code).isEmpty }
        try clear()
        try run.agent.wait(seconds: seconds, "the end of \(code)") {
            !run.events("alarm_cleared", code: code).isEmpty
        }
        let cleared = try #require(run.events("alarm_cleared", code: code).first)
        #expect(cleared["message"] is String && (cleared["duration"] as? Double ?? -1) >= 0, "\(cleared)")
        _ = try run.waitForStatus(seconds: 10, "the alarm gone from status") { status in
            !(status["alarms"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == code }
        }
        #expect(run.agent.interrupt() == 0, "\(run.agent.stderr)")
        #expect(run.events("error", code: code).count == 1, "raised once: \(run.events("error"))")
        #expect(run.events("alarm_cleared", code: code).count == 1, "cleared once")
    }

    @Test("receiver_silent: a receiver that reports no fix for no_fix_alarm; cleared by the first usable fix")
    func receiverSilent() throws {
        let fixes = try NMEALog(path: Self.drive).epochs(from: 300, to: 360)
        let run = try OperatedRun(
            segments: [Self.noFixEpochs(40), fixes],
            speed: 1,
            settings: "[health]\nno_fix_alarm = \"2s\"\n"
        )
        try Self.raiseAndClear(run, "receiver_silent")
        let raised = try #require(run.events("error", code: "receiver_silent").first)
        let firstFix = try #require(run.events("location").first)
        #expect((raised["seq"] as? Int ?? 0) < (firstFix["seq"] as? Int ?? 0), "raised before the fixes came")
    }

    @Test("clock_skew: a system clock hours ahead of GPS time, then set right")
    func clockSkew() throws {
        let library = try #require(BootClockTests.libfaketime, "Debian's faketime is missing")
        let fixes = try NMEALog(path: Self.drive).epochs(from: 300, to: 360)
        let clockFile = try Fixtures.temporaryDirectory().appendingPathComponent("faketime")
        defer { try? FileManager.default.removeItem(at: clockFile.deletingLastPathComponent()) }
        // The agent alone runs ahead (gpsd and the feed keep the host's clock); libfaketime reads the file at every
        // clock call, so writing it sets the clock right while the agent runs. Ahead by more than the machine has
        // been up, wherever the test runs: Debian's libfaketime 0.9.10 moves absolute CLOCK_MONOTONIC deadlines
        // back by its offset, to before the boot of a machine up for less than it (a fresh CI machine), which the
        // kernel refuses. The agent must keep its deadlines all the same.
        let uptime = try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ").first
        let offset = Int(try #require(uptime.flatMap { Double($0) })) + 7_200
        try "+\(offset)\n".write(to: clockFile, atomically: true, encoding: .utf8)
        let run = try OperatedRun(
            segments: [fixes],
            speed: 1,
            settings: "[health]\nmax_clock_skew = \"5s\"\nclock_check_interval = \"2s\"\n",
            launcher: ["/usr/bin/env"],
            environment: [
                "LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": clockFile.path, "FAKETIME_NO_CACHE": "1",
                "DONT_FAKE_MONOTONIC": "1",
            ]
        )
        try Self.raiseAndClear(run, "clock_skew") {
            let raised = try #require(run.events("error", code: "clock_skew").first)
            let message = raised["message"] as? String ?? ""
            #expect(message.hasPrefix("the system clock is ") && message.contains(" h ahead of GPS time"), "\(message)")
            try "+0\n".write(to: clockFile, atomically: true, encoding: .utf8)
        }
    }

    @Test("disk_low: the state directory's file system filled below min_free_bytes, then emptied")
    func diskLow() throws {
        let fixes = try NMEALog(path: Self.drive).epochs(from: 300, to: 360)
        let mountPoint = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let mounted = Self.mountTmpfs(at: mountPoint.path, megabytes: 16)
        defer { if mounted { Self.unmount(mountPoint.path) } }
        let filler = mountPoint.appendingPathComponent("filler")
        // Where the test may not mount a file system, a threshold above the free space raises the alarm, and a
        // reload with one below it clears it.
        let threshold = mounted ? "8MB" : "64TB"
        let run = try OperatedRun(
            segments: [fixes],
            speed: 1,
            settings: """
                [health]
                min_free_bytes = "\(threshold)"
                [metrics]
                interval = "1s"
                """,
            stateDirectory: mounted ? mountPoint.appendingPathComponent("state").path : nil
        )
        if mounted {
            try run.agent.wait(seconds: 20, "a fix") { !run.events("location").isEmpty }
            try Data(count: 10 << 20).write(to: filler)
        }
        try Self.raiseAndClear(run, "disk_low") {
            if mounted {
                try FileManager.default.removeItem(at: filler)
            } else {
                let text = try String(contentsOfFile: run.config, encoding: .utf8)
                try text.replacingOccurrences(of: "\"64TB\"", with: "\"1MB\"").write(
                    toFile: run.config,
                    atomically: true,
                    encoding: .utf8
                )
                run.agent.signal(SIGHUP)
            }
        }
    }

    @Test("sink_stalled: the log directory replaced by a file, then restored")
    func sinkStalled() throws {
        let fixes = try NMEALog(path: Self.drive).epochs(from: 300, to: 360)
        let run = try OperatedRun(
            segments: [fixes],
            speed: 1,
            settings: """
                [deferred]
                enabled = false
                [health]
                max_unsent_age = "2s"
                [metrics]
                interval = "1s"
                """
        )
        let logs = run.directory.appendingPathComponent("logs")
        let away = run.directory.appendingPathComponent("logs.away")
        try run.agent.wait(seconds: 20, "the first delivery") {
            FileManager.default.fileExists(atPath: logs.appendingPathComponent("events").path)
        }
        try FileManager.default.moveItem(at: logs, to: away)
        // Even root cannot write a file below a file.
        _ = FileManager.default.createFile(atPath: logs.path, contents: Data("not a directory\n".utf8))
        try Self.raiseAndClear(run, "sink_stalled") {
            try FileManager.default.removeItem(at: logs)
            try FileManager.default.moveItem(at: away, to: logs)
        }
        #expect(!run.events("error", code: "sink_failure").isEmpty, "\(run.events("error"))")
    }

    static func mountTmpfs(at path: String, megabytes: Int) -> Bool {
        guard getuid() == 0 else { return false }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return false }
        mount.waitUntilExit()
        return mount.terminationStatus == 0
    }

    static func unmount(_ path: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["-l", path]
        try? umount.run()
        umount.waitUntilExit()
    }
}

/// Bad input: an output that cannot be written is one clear error at start, and tracking goes on.
@Suite("Unwritable status and metrics")
struct UnwritableOperationsTests {
    @Test("a textfile below a regular file: one operations_output error, in status too; locations go on")
    func unwritableTextfile() throws {
        let fixes = try NMEALog(path: HealthAlarmTests.drive).epochs(from: 300, to: 360)
        let blocker = try Fixtures.temporaryDirectory().appendingPathComponent("file")
        defer { try? FileManager.default.removeItem(at: blocker.deletingLastPathComponent()) }
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data())
        let run = try OperatedRun(
            segments: [fixes],
            speed: 1,
            settings: "[metrics]\ntextfile = \"\(blocker.path)/waymark.prom\"\ninterval = \"1s\"\n"
        )
        let status = try run.waitForStatus(seconds: 20, "the error in status") { status in
            (status["errors"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "operations_output" }
        }
        let entry = try #require(
            (status["errors"] as? [[String: Any]])?.first { $0["code"] as? String == "operations_output" }
        )
        #expect((entry["message"] as? String)?.contains("[metrics] textfile cannot be written") == true, "\(entry)")
        let before = run.events("location").count
        try run.agent.wait(seconds: 20, "more locations") { run.events("location").count > before + 3 }
        #expect(run.agent.interrupt() == 0)
        #expect(run.events("error", code: "operations_output").count == 1, "said once")
    }

    @Test("a runtime directory below a regular file: one operations_output error; locations go on")
    func unwritableRuntimeDirectory() throws {
        let fixes = try NMEALog(path: HealthAlarmTests.drive).epochs(from: 300, to: 360)
        let blocker = try Fixtures.temporaryDirectory().appendingPathComponent("file")
        defer { try? FileManager.default.removeItem(at: blocker.deletingLastPathComponent()) }
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data())
        let run = try OperatedRun(segments: [fixes], speed: 1, settings: "", runtimeDirectory: blocker.path + "/run")
        try run.agent.wait(seconds: 20, "locations") { run.events("location").count > 3 }
        #expect(run.agent.interrupt() == 0)
        let errors = run.events("error", code: "operations_output")
        #expect(errors.count == 1, "\(errors)")
        #expect((errors.first?["message"] as? String)?.contains("[agent] runtime_dir status file") == true)
        #expect(run.agent.stderr.contains("runtime_dir status file cannot be written"))
    }
}
