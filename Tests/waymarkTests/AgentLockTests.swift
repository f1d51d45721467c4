import Foundation
import Testing
import WaymarkTestSupport

/// One writer per spool: a second `waymark run` (or `replay --spool`) on the same `state_dir` is refused at
/// start with the first one's pid, while the commands that only read the spool keep working beside it.
@Suite("One agent per spool")
struct AgentLockTests {
    @Test("a second writer is refused with exit 75 naming the first; readers work beside it; the lock ends with it")
    func secondWriterIsRefused() throws {
        // A receiver with fixes: without one, the first events wait for a fix before they are committed.
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk"))
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let workspace = try DurabilityTests.Workspace()
        let endpoint = "127.0.0.1:\(gpsd.port)"
        let first = try workspace.start(gpsd: gpsd.port)
        let pid = first.process.processIdentifier
        let lock = workspace.state.appendingPathComponent("waymark.lock").path
        try first.wait(seconds: 30, "the first agent's lock") {
            (try? String(contentsOfFile: lock, encoding: .utf8)) == "\(pid)\n"
        }

        let second = try WaymarkBinary.run(["run", "--config", workspace.config, "--gpsd", endpoint], timeout: 30)
        #expect(second.status == 75, "\(second.stderr)")
        let line = second.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.contains("pid \(pid)") && line.contains(workspace.state.path), "\(second.stderr)")
        #expect(second.stdout.isEmpty)

        let capture = Fixtures.gpsdLog("bu303-nofix.log.chk")
        let replay = try WaymarkBinary.run(["replay", capture, "--spool", "--config", workspace.config])
        #expect(replay.status == 75 && replay.stderr.contains("pid \(pid)"), "\(replay.stderr)")
        // Replay without --spool writes nothing and needs no lock.
        #expect(try WaymarkBinary.run(["replay", capture, "--config", workspace.config]).status == 0)

        // The first agent kept its spool: a reader beside it sees its events once they are committed.
        try first.wait(seconds: 30, "a committed event read beside the agent") {
            ((try? workspace.spoolStats())?["last_seq"] as? Int ?? 0) >= 1
        }
        #expect(first.interrupt() == 0, "\(first.stderr)")

        // Gone, it holds nothing: the next agent starts and runs.
        let next = try WaymarkBinary.run(["run", "--config", workspace.config, "--gpsd", endpoint, "--for", "1s"])
        #expect(next.status == 0, "\(next.stderr)")
    }
}
