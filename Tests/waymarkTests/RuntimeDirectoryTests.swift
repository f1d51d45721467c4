import Foundation
import Testing
import WaymarkTestSupport

/// Issue 36, "One agent, one set of files": two agents with a `state_dir` each and one `runtime_dir` (the default
/// `/run/waymark` of both), with a real gpsd. The runtime directory is the first one's: the second is refused at
/// start in one line naming the first's pid, and `waymark status --config FILE` describes the agent of FILE's
/// state, never the other.
@Suite("One agent per runtime directory")
struct RuntimeDirectoryTests {
    /// The configuration of a second agent in `directory`, with the runtime directory `runtime`.
    static func secondConfiguration(in directory: URL, runtime: String) throws -> String {
        let config = directory.appendingPathComponent("waymark.toml").path
        try Fixtures.isolatedSections(in: directory, runtimeDirectory: runtime).write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        return config
    }

    static func json(_ result: WaymarkBinary.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("a second agent on one runtime_dir is refused naming the first; status of each configuration is its own")
    func secondAgentOnOneRuntimeDirectory() throws {
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let shared = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: shared) }
        let runtime = shared.appendingPathComponent("run").path
        let first = try OperatedRun(
            segments: [drive.epochs(from: 300, to: 400)],
            speed: 2,
            settings: "",
            runtimeDirectory: runtime
        )
        let pid = Int(first.agent.process.processIdentifier)
        let running = try first.waitForStatus(seconds: 30, "a fix") { $0["last_fix"] != nil }
        #expect(running["pid"] as? Int == pid)

        let other = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let config = try Self.secondConfiguration(in: other, runtime: runtime)
        let endpoint = "127.0.0.1:\(first.gpsd.port)"
        let refused = try WaymarkBinary.run(["run", "--config", config, "--gpsd", endpoint], timeout: 30)
        #expect(refused.status == 75, "\(refused.stderr)")
        let line = refused.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.contains("pid \(pid)") && line.contains(runtime) && line.contains("runtime_dir"), "\(line)")
        #expect(line.contains("state_dir \(first.directory.appendingPathComponent("state").path)"), "\(line)")

        // The other configuration's status is not the first agent's: nothing runs with its state.
        let otherStatus = try WaymarkBinary.run(["status", "--json", "--config", config])
        #expect(otherStatus.status == 3, "\(otherStatus.stdout) \(otherStatus.stderr)")
        let object = try Self.json(otherStatus)
        // Refused before it opened a spool: its own state has none, and says so.
        #expect(object["running"] as? Bool == false, "\(object)")
        #expect((object["spool_error"] as? String)?.contains("no spool there") == true, "\(object)")
        let owner = try #require(object["status_file_owner"] as? [String: Any], "\(object)")
        #expect(owner["pid"] as? Int == pid && owner["running"] as? Bool == true, "\(owner)")
        let table = try WaymarkBinary.run(["status", "--config", config])
        #expect(table.status == 3)
        #expect(table.stdout.hasPrefix("waymark is not running with state_dir "), "\(table.stdout)")
        #expect(table.stdout.contains("is another agent's: pid \(pid)"), "\(table.stdout)")
        // The first configuration's is.
        let firstStatus = try Self.json(try WaymarkBinary.run(["status", "--json", "--config", first.config]))
        #expect(firstStatus["running"] as? Bool == true && firstStatus["pid"] as? Int == pid, "\(firstStatus)")

        // Once the first has stopped, the second takes the directory, and each status follows its own agent.
        #expect(first.agent.interrupt() == 0, "\(first.agent.stderr)")
        let second = try WaymarkBinary.start(["run", "--config", config, "--gpsd", endpoint])
        let secondPID = Int(second.process.processIdentifier)
        try second.wait(seconds: 30, "the second agent's status") {
            guard let result = try? WaymarkBinary.run(["status", "--json", "--config", config]),
                let object = try? Self.json(result)
            else { return false }
            return result.status == 0 && object["pid"] as? Int == secondPID
        }
        let firstAgain = try WaymarkBinary.run(["status", "--json", "--config", first.config])
        #expect(firstAgain.status == 3, "\(firstAgain.stdout)")
        #expect((try Self.json(firstAgain)["status_file_owner"] as? [String: Any])?["pid"] as? Int == secondPID)
        #expect(second.interrupt() == 0, "\(second.stderr)")
    }

    @Test("a status file naming this state_dir but another pid than its lock's is nobody's: status exits 3")
    func statusFileOfAnotherProcessOfTheSameState() throws {
        let drive = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let run = try OperatedRun(segments: [drive.epochs(from: 300, to: 330)], speed: 1, settings: "")
        _ = try run.waitForStatus(seconds: 30, "a fix") { $0["last_fix"] != nil }
        // The lock of the state now names another live process (this test's), as after a stale copy.
        let lock = run.directory.appendingPathComponent("state/waymark.lock").path
        try "\(getpid())\n".write(toFile: lock, atomically: false, encoding: .utf8)
        let result = try WaymarkBinary.run(["status", "--json", "--config", run.config])
        #expect(result.status == 3, "\(result.stdout)")
        #expect(run.agent.interrupt() == 0)
    }
}
