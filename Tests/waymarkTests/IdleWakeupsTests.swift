import Foundation
import Testing
import WaymarkTestSupport

/// An agent with nothing to do sleeps: no thread of it wakes on a timer every second. libdispatch's workqueue
/// monitor did until the agent ran the runtime's global jobs on threads of its own (`GlobalExecutor`), and a
/// parked agent's day was 57,600 wake-ups for it (docs/performance.md). What may still wake it here is gpsd's
/// own traffic on the connection's thread, now and then.
@Suite("Idle wake-ups")
struct IdleWakeupsTests {
    @Test("idle on a gpsd without a receiver, a stop timer set: no libdispatch thread wakes, nothing once a second")
    func idle() throws {
        let gpsd = try GPSDWithoutReceiver()
        let workspace = try DurabilityTests.Workspace()
        // `--for` leaves a deadline pending the whole time (`GlobalExecutor.sleep`, kept by a job thread).
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--for", "10m"]
        )
        try agent.wait(seconds: 30, "no_device") { agent.stderr.contains("code=no_device") }
        let pid = agent.process.processIdentifier
        #expect(ProcessResources.threads(named: "waymark jobs", process: pid) >= 1)
        // What the start left to do (the status file, the first commit) ends first: the counts held for a second.
        var settled = ProcessResources.threadSwitches(of: pid).mapValues(\.switches)
        for _ in 0..<60 {
            Thread.sleep(forTimeInterval: 1)
            let now = ProcessResources.threadSwitches(of: pid).mapValues(\.switches)
            if now == settled { break }
            settled = now
        }
        let before = ProcessResources.threadSwitches(of: pid)
        Thread.sleep(forTimeInterval: 6)
        let after = ProcessResources.threadSwitches(of: pid)
        let woke = after.compactMap { task, thread -> (name: String, count: Int)? in
            let count = thread.switches - (before[task]?.switches ?? 0)
            return count > 0 ? (thread.name, count) : nil
        }
        // libdispatch's threads: its manager (`…-qos.overcommit`, which runs the monitor) and its workers.
        let dispatch = woke.filter { $0.name.contains("qos") }
        #expect(dispatch.isEmpty, "libdispatch's threads woke: \(woke)")
        #expect(woke.map(\.count).reduce(0, +) < 4, "threads that woke: \(woke)")
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }
}
