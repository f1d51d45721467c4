import Foundation
import Testing
import WaymarkTestSupport

/// Issue 36, item 4: `waymark replay` takes a raw receiver log, reads it through a real gpsd of its own, and
/// gives the events of gpsd's capture of that log.
@Suite("Replay of a raw receiver log through a private gpsd")
struct RawLogReplayTests {
    /// The settings both replays run with: the defaults, and with headings on (ATT and course headings).
    static let settings = ["", "[heading]\nenabled = true\n"]

    /// Replays `file` with `settings` and returns the result.
    static func replay(
        _ file: String,
        _ settings: String,
        environment: [String: String] = [:]
    ) throws
        -> WaymarkBinary.Result
    {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("waymark.toml").path
        let text = Fixtures.isolatedSections(in: directory, besides: settings) + settings
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try WaymarkBinary.run(["replay", file, "--print", "--config", config], environment: merged)
    }

    /// The summary line without its file name and the count only a raw log's replay has.
    static func summary(_ result: WaymarkBinary.Result) -> String? {
        guard let line = result.stderr.split(separator: "\n").last(where: { $0.hasPrefix("replay ") }) else {
            return nil
        }
        let counts = line.split(separator: ": ", maxSplits: 1).last ?? ""
        return counts.split(separator: " ").filter { !$0.hasPrefix("gpsd_reports=") }.joined(separator: " ")
    }

    @Test("the events of a raw log are those of its .chk made by gpsd 3.22", arguments: Fixtures.gpsdLogsWithCapture())
    func sameEventsAsTheCapture(log: String) throws {
        for settings in Self.settings {
            let raw = try Self.replay(Fixtures.gpsdLog(log), settings)
            let capture = try Self.replay(Fixtures.gpsdLog(log + ".chk"), settings)
            #expect(raw.status == 0, "\(log): \(raw.stderr)")
            #expect(capture.status == 0, "\(log).chk: \(capture.stderr)")
            #expect(!raw.stdoutLines.isEmpty, "\(log): no event")
            #expect(raw.stdoutLines == capture.stdoutLines, "\(log) with \(settings.debugDescription)")
            #expect(Self.summary(raw) != nil && Self.summary(raw) == Self.summary(capture), "\(raw.stderr)")
            #expect(raw.stderr.contains(" gpsd_reports="), "\(raw.stderr)")
        }
    }

    @Test("without gpsd a raw log is refused in one line, exit status 69")
    func gpsdMissing() throws {
        let log = Fixtures.gpsdLog("haicom-305N.log")
        let result = try Self.replay(log, "", environment: ["GPSD": "/nonexistent/gpsd"])
        #expect(result.status == 69 && result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("\(log) is a raw receiver log (325 NMEA sentences)") == true, "\(result.stderr)")
        #expect(lines.first?.contains("GPSD=/nonexistent/gpsd is no executable file") == true, "\(result.stderr)")
    }

    @Test("a gpsd that fails is named with its exit status, and nothing is replayed")
    func gpsdFails() throws {
        let result = try Self.replay(Fixtures.gpsdLog("bt451.log"), "", environment: ["GPSD": "/bin/false"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains("/bin/false did not start (exit status 1)"), "\(result.stderr)")
    }

    @Test("a raw log of megabytes replays whole: every sentence and location gpsd made of each copy")
    func multiMegabyteLog() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The Regensburg drive ten times in a row, its time going on (4.3 MB): gpsd says 2 MB of each 430 KB.
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let copies = 10
        let long = drive.looped(toCover: Double(copies) * drive.span)
        let log = directory.appendingPathComponent("long.log")
        try Data(long.sentences.map { $0 + "\r\n" }.joined().utf8).write(to: log)
        #expect(long.sentences.count == copies * drive.sentences.count)
        let raw = try Self.replay(log.path, "")
        #expect(raw.status == 0, "\(raw.stderr)")
        // What the capture of one copy gives, ten times: nothing of gpsd's output lost.
        let one = try Self.replay(Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk"), "")
        let counts = try #require(Self.summary(raw)).split(separator: " ")
        let oneCounts = try #require(Self.summary(one)).split(separator: " ")
        for name in ["nmea", "location", "sky"] {
            let single = try #require(
                oneCounts.first { $0.hasPrefix("\(name)=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
            )
            #expect(counts.contains("\(name)=\(copies * single)"), "\(name): \(raw.stderr.suffix(300))")
        }
    }

    @Test(
        "SIGHUP, SIGINT or SIGTERM while gpsd reads the log: gpsd stopped, exit 128 + signal",
        arguments: [(SIGINT, false), (SIGTERM, false), (SIGHUP, false), (SIGINT, true)]
    )
    /// - Parameter toGroup: the signal goes to waymark's process group, gpsd included, as Ctrl-C at a terminal.
    func interrupted(signal: Int32, toGroup: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.longLog(in: directory)
        let running = try WaymarkBinary.start(["replay", log, "--print"])
        let child = try Self.gpsd(of: running)
        if toGroup {
            // Only a group of waymark's own: never the test runner's.
            let pid = running.process.processIdentifier
            try #require(getpgid(pid) == pid, "waymark leads no process group of its own")
            kill(-pid, signal)
        } else {
            running.signal(signal)
        }
        let deadline = Date().addingTimeInterval(10)
        while running.process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!running.process.isRunning, "waymark still runs 10 s after the signal")
        running.process.waitUntilExit()
        #expect(running.process.terminationStatus == 128 + signal, "\(running.stderr)")
        let name = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGTERM: "SIGTERM"][signal] ?? ""
        // gpsd may still be starting when the signal comes, on a loaded machine.
        let stopped = ["read the raw log", "started"].map { "\(name) while gpsd \($0): stopped, nothing replayed" }
        #expect(stopped.contains { running.stderr.contains($0) }, "\(running.stderr)")
        #expect(running.stdout.isEmpty)
        #expect(!Self.isGPSD(child), "gpsd \(child) still runs")
    }

    @Test("a SIGINT that waymark was started ignoring stays ignored: the replay goes on to the end")
    func ignoredInterrupt() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.longLog(in: directory, copies: 10)
        // What a script's background job is: started with SIGINT ignored.
        let running = try WaymarkBinary.start(
            ["-c", #"trap '' INT; exec "$0" replay "$1""#, WaymarkBinary.path, log],
            executable: "/bin/sh"
        )
        _ = try Self.gpsd(of: running)
        running.signal(SIGINT)
        let deadline = Date().addingTimeInterval(60)
        while running.process.isRunning && Date() < deadline { usleep(10_000) }
        running.process.waitUntilExit()
        #expect(running.process.terminationStatus == 0, "\(running.stderr)")
        #expect(running.stderr.contains("replay \(log): "), "\(running.stderr)")
    }

    /// The Regensburg drive `copies` times over (60: 26 MB, which gpsd takes seconds to read), in `directory`.
    static func longLog(in directory: URL, copies: Int = 60) throws -> String {
        let drive = try Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog("20100411_Geko_Regensburg.log")))
        let log = directory.appendingPathComponent("long.log")
        try Data(repeating: 0, count: 0).write(to: log)
        let handle = try FileHandle(forWritingTo: log)
        for _ in 0..<copies { handle.write(drive) }
        try handle.close()
        return log.path
    }

    /// The gpsd that `running` started, once it has.
    static func gpsd(of running: WaymarkBinary.Running) throws -> Int32 {
        var gpsd: Int32?
        try running.wait(seconds: 20, "gpsd to start") {
            gpsd = children(of: running.process.processIdentifier, named: "gpsd").first
            return gpsd != nil
        }
        return try #require(gpsd)
    }

    /// The processes whose parent is `parent` and whose name is `name`, from /proc.
    static func children(of parent: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            let stat = ProcessResources.readProcFile("/proc/\(pid)/stat")
            guard let close = stat.lastIndex(of: ")"), stat.hasPrefix("\(pid) (\(name))") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    /// Whether `pid` is a gpsd that has not exited (a zombie has exited).
    static func isGPSD(_ pid: Int32) -> Bool {
        let stat = ProcessResources.readProcFile("/proc/\(pid)/stat")
        guard stat.hasPrefix("\(pid) (gpsd)"), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
