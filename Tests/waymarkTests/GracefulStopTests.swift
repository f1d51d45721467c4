import Foundation
import Testing
import WaymarkTestSupport

/// SIGTERM (systemd's stop) and SIGINT (Ctrl-C) end every command gracefully, in every state: exit status 0,
/// no error printed, and what was emitted committed.
@Suite("Graceful stops")
struct GracefulStopTests {
    /// Sends `signal` and waits for the exit status, at most 10 s.
    static func stop(_ agent: WaymarkBinary.Running, with signal: Int32) throws -> Int32 {
        agent.signal(signal)
        let deadline = Date().addingTimeInterval(10)
        while agent.process.isRunning {
            guard Date() < deadline else {
                agent.process.stop()
                throw TestServerError("still running 10 s after signal \(signal)")
            }
            usleep(10_000)
        }
        return agent.process.terminationStatus
    }

    /// `--for` used to leave its timer behind, cancelled by the signal: `Error: CancellationError()`, exit 1.
    @Test("run --for, backing off from an unreachable gpsd", arguments: [SIGTERM, SIGINT])
    func backingOff(signal: Int32) throws {
        let workspace = try DurabilityTests.Workspace()
        let closed = try GPSDTestServer.freePort()
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(closed)", "--for", "60s"]
        )
        // Without a fix, events wait for one (docs/events.md, "Which clock dates an event"), but the log says it
        // at once.
        try agent.wait(seconds: 30, "gpsd_unavailable") { agent.stderr.contains("code=gpsd_unavailable") }
        #expect(try Self.stop(agent, with: signal) == 0, "\(agent.stderr)")
        #expect(!agent.stderr.contains("Error"), "\(agent.stderr)")
        #expect(agent.stdout.contains(#""code":"gpsd_unavailable""#), "the waiting events are emitted at the stop")
    }

    /// The agent's global executor once ran its jobs as on a task executor: a job then hopped off at its first
    /// `await`, and swift-async-algorithms' `merge` (inside swift-service-lifecycle), which holds its lock across
    /// an `await` it expects to run at once, deadlocked both job threads now and then (at the 43rd start of one
    /// series, the 2nd of another): 100 starts in a row find such a rate most of the time.
    @Test("run, stopped by SIGINT as soon as it is up, 100 times: every stop is graceful")
    func stoppedAtOnce() throws {
        let workspace = try DurabilityTests.Workspace()
        let closed = try GPSDTestServer.freePort()
        for attempt in 1...100 {
            let agent = try WaymarkBinary.start(
                ["run", "--config", workspace.config, "--gpsd", "127.0.0.1:\(closed)", "--for", "60s"]
            )
            try agent.wait(seconds: 30, "gpsd_unavailable") { agent.stderr.contains("code=gpsd_unavailable") }
            #expect(try Self.stop(agent, with: SIGINT) == 0, "stop \(attempt): \(agent.stderr)")
        }
    }

    @Test("run, connected to a gpsd without a receiver", arguments: [SIGTERM, SIGINT])
    func connected(signal: Int32) throws {
        let gpsd = try GPSDWithoutReceiver()
        let workspace = try DurabilityTests.Workspace()
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--for", "60s"]
        )
        try agent.wait(seconds: 30, "no_device") { agent.stderr.contains("code=no_device") }
        #expect(try Self.stop(agent, with: signal) == 0, "\(agent.stderr)")
        #expect(agent.stdout.contains(#""code":"no_device""#), "the waiting events are emitted at the stop")
    }

    /// A paced replay used to die of the signal (143), losing what it had not committed.
    @Test("replay --spool, paced, stopped in the middle: every event it printed is in the spool")
    func pacedReplay() throws {
        let workspace = try DurabilityTests.Workspace()
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let replay = try WaymarkBinary.start(
            ["replay", capture, "--spool", "--print", "--speed", "4", "--config", workspace.config]
        )
        try replay.wait(seconds: 30, "the third location") {
            replay.stdout.components(separatedBy: #""type":"location""#).count > 3
        }
        #expect(try Self.stop(replay, with: SIGTERM) == 0, "\(replay.stderr)")
        let printed = replay.stdout.split(separator: "\n").map(String.init)
        #expect(printed.count >= 3 && printed.count < 1_000)
        #expect(try workspace.spoolLines() == printed)
        #expect(replay.stderr.contains("spool_commits="))
    }

    @Test("locate in progress: it answers interrupted, exit 0")
    func locate() throws {
        let gpsd = try GPSDWithoutReceiver()
        let locate = try WaymarkBinary.start(["locate", "--gpsd", "127.0.0.1:\(gpsd.port)", "--timeout", "60"])
        try locate.wait(seconds: 30, "the search waiting for a receiver") { locate.stderr.contains("no receiver") }
        #expect(try Self.stop(locate, with: SIGTERM) == 0, "\(locate.stderr)")
        #expect(locate.stdout.contains(#""code":"interrupted""#), "\(locate.stdout)")
    }
}
