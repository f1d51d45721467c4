import Foundation
import Testing
import WaymarkTestSupport

/// An agent with nothing to do sleeps: no thread of it wakes on a timer of its own. libdispatch's workqueue
/// monitor woke it every second until the agent ran the runtime's global jobs on threads of its own
/// (`GlobalExecutor`), and a parked agent's day was 57,600 wake-ups for it (docs/performance.md).
@Suite("Idle wake-ups")
struct IdleWakeupsTests {
    @Test("connected to a gpsd without a receiver, with a stop timer set, no thread wakes for 4 s")
    func idle() throws {
        let gpsd = try GPSDWithoutReceiver()
        let workspace = try DurabilityTests.Workspace()
        // `--for` leaves a deadline of the runtime's (Task.sleep) pending the whole time.
        let agent = try WaymarkBinary.start(
            ["run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--for", "10m"]
        )
        try agent.wait(seconds: 30, "no_device") { agent.stderr.contains("code=no_device") }
        let pid = agent.process.processIdentifier
        #expect(ProcessResources.threads(named: "waymark jobs", process: pid) >= 1)
        // What the start left to do (the status file, the first commit) ends within a second or two.
        Thread.sleep(forTimeInterval: 2)
        let before = ProcessResources.threadSwitches(of: pid)
        Thread.sleep(forTimeInterval: 4)
        let after = ProcessResources.threadSwitches(of: pid)
        let woke = after.compactMap { task, thread in
            let count = thread.switches - (before[task]?.switches ?? 0)
            return count > 0 ? "\(thread.name) (\(task)): \(count)" : nil
        }
        #expect(woke.isEmpty, "threads that woke: \(woke)")
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }
}
