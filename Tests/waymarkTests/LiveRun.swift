import Foundation
import Testing
import WaymarkTestSupport

/// `waymark run --print` against a real gpsd replaying a capture, from start to the end of the log.
enum LiveRun {
    /// Runs the agent with `settings` (TOML) against a real gpsd replaying `log`, until gpsd reports the
    /// receiver gone at the end of the log; returns every event and the log lines.
    static func events(_ log: String, _ settings: String) throws -> (events: [[String: Any]], stderr: String) {
        try events(path: Fixtures.gpsdLog(log), settings)
    }

    /// The same for the log at `path`.
    static func events(path log: String, _ settings: String) throws -> (events: [[String: Any]], stderr: String) {
        let gpsd = try GPSDTestServer(log: log)
        let directory = try Fixtures.temporaryDirectory()
        defer {
            gpsd.stop()
            gpsd.removeFiles()
            try? FileManager.default.removeItem(at: directory)
        }
        let path = directory.appendingPathComponent("waymark.toml").path
        let agentSection = Fixtures.isolatedSections(in: directory, besides: settings)
        try "\(agentSection)\(settings)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", path, "--gpsd", "127.0.0.1:\(gpsd.port)", "--log-level", "debug"]
        )
        // The log says it at once; a capture without a fix prints its events only at the stop.
        try agent.wait(seconds: 60, "the end of \(log)") { agent.stderr.contains("code=no_device") }
        // The core, the spool's commits and the sinks run on a thread of their own, the reader on another, the
        // runtime's global jobs on the agent's own threads (GlobalExecutor), a core each at most.
        let pid = agent.process.processIdentifier
        #expect(ProcessResources.threads(named: "waymark core", process: pid) == 1)
        #expect(ProcessResources.threads(named: "gpsd ", process: pid) == 1)
        let jobThreads = ProcessResources.threads(named: "waymark jobs", process: pid)
        #expect(jobThreads >= 1 && jobThreads <= max(2, ProcessInfo.processInfo.activeProcessorCount))
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let events = try agent.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        return (events, agent.stderr)
    }
}
