import Foundation
import Testing
import WaymarkTestSupport

/// Issue 16: `waymark run` as systemd's `Type=notify` service, with the test as the service manager: a real
/// datagram socket as `NOTIFY_SOCKET`, a real gpsd reading a receiver at its own pace.
@Suite("systemd notifications of a running agent")
struct SystemdNotifyTests {
    @Test(
        "READY once the spool exists, STATUS that follows a fix and a pause, pings at half WATCHDOG_USEC, reload, stop"
    )
    func lifecycle() throws {
        // The drive's longest stop, looped: a fix at once, then a pause.
        let spoolAtReady = SpoolAtReady()
        let run = try NotifiedRun(
            from: 870,
            to: 916,
            speed: 2,
            watchdogMicroseconds: 2_000_000,
            settings: "[activity]\npause_after = \"8s\""
        ) { spool, assignments in
            guard assignments.contains("READY=1") else { return }
            spoolAtReady.record(FileManager.default.fileExists(atPath: spool))
        }
        let (listener, agent) = (run.listener, run.agent)
        try agent.wait(seconds: 30, "the pause") {
            listener.statusLines.contains { $0.hasPrefix("paused (stationary) since ") }
        }
        #expect(spoolAtReady.values.first == true, "READY=1 came before the spool existed")
        let statuses = listener.statusLines
        let fix = statuses.firstIndex { $0.contains("D fix, ") && $0.contains(" satellites, moving") }
        let pause = statuses.firstIndex { $0.hasPrefix("paused (stationary) since ") }
        #expect(fix != nil && pause != nil && fix! < pause!, "\(statuses)")
        #expect(statuses.allSatisfy { $0.hasSuffix(" unsent") }, "\(statuses)")

        // Paused, the agent still pings: every second for WATCHDOG_USEC = 2 s.
        let window = Date()
        Thread.sleep(forTimeInterval: 10)
        let pings = listener.times(of: "WATCHDOG=1").filter { $0 > window && $0 <= window.addingTimeInterval(10) }
        #expect((9...11).contains(pings.count), "\(pings.count) pings in 10 s")

        let beforeReload = listener.messages.count
        agent.signal(SIGHUP)
        try agent.wait(seconds: 10, "the reload's READY") {
            listener.messages.dropFirst(beforeReload).contains { $0.assignments.contains("READY=1") }
        }
        let reload = Array(listener.messages.dropFirst(beforeReload))
        let reloading = reload.firstIndex { $0.assignments.contains("RELOADING=1") }
        #expect(reloading.map { reload[$0].assignments.contains { $0.hasPrefix("MONOTONIC_USEC=") } } == true)
        #expect(reloading.map { $0 < reload.firstIndex { $0.assignments.contains("READY=1") }! } == true)

        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        #expect(listener.messages.last?.assignments.contains("STOPPING=1") == true)
        #expect(listener.times(of: "READY=1").count == 2)
    }

    @Test("no ping while the core waits on a commit that another process's lock holds up")
    func stalledCoreStopsThePings() throws {
        let run = try NotifiedRun(
            from: 120,
            to: 400,
            speed: 1,
            watchdogMicroseconds: 1_000_000,
            settings: "[spool]\ncommit_interval = \"1s\""
        )
        let (listener, agent, directory) = (run.listener, run.agent, run.directory)
        try agent.wait(seconds: 30, "a fix") { listener.statusLines.contains { $0.contains("D fix, ") } }
        Thread.sleep(forTimeInterval: 2)

        // sqlite3 holds the spool's write lock for 6 s (less than the spool's busy timeout of 10 s): the core's
        // next commit waits for it, and with it the loop that pings.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [directory.appendingPathComponent("state/spool.sqlite").path]
        let input = Pipe()
        sqlite.standardInput = input
        sqlite.standardOutput = FileHandle.nullDevice
        try sqlite.run()
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 1;\n".utf8))
        let locked = Date()
        Thread.sleep(forTimeInterval: 6)
        let released = Date()
        input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try input.fileHandleForWriting.close()
        sqlite.waitUntilExit()
        Thread.sleep(forTimeInterval: 3)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")

        let pings = listener.times(of: "WATCHDOG=1")
        let before = pings.filter { $0 > locked.addingTimeInterval(-2) && $0 <= locked }
        // The commit due within 1 s of the lock blocks; from then until the lock goes, no ping.
        let stalled = pings.filter { $0 > locked.addingTimeInterval(2) && $0 < released }
        let after = pings.filter { $0 > released }
        #expect(before.count >= 3, "pings before the lock: \(before.count)")
        let offsets = pings.map { ($0.timeIntervalSince(locked) * 10).rounded() / 10 }
        #expect(stalled.isEmpty, "\(stalled.count) pings while the commit waited; pings at \(offsets) s from the lock")
        #expect(after.count >= 4, "pings after the lock: \(after.count)")
    }
}

extension SystemdNotifyTests {
    @Test("pings from READY on, while a gpsd that accepts and never answers gives the loop no input")
    func pingsWithoutInput() throws {
        let peer = try StalledPeer(sending: [])
        defer { peer.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listener = try NotifyListener(in: directory)
        defer { listener.stop() }
        let config = directory.appendingPathComponent("waymark.toml").path
        try Fixtures.isolatedSections(in: directory).write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try WaymarkBinary.start(
            ["run", "--config", config, "--gpsd", "127.0.0.1:\(peer.port)"],
            adding: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"]
        )
        try agent.wait(seconds: 10, "READY=1") { !listener.times(of: "READY=1").isEmpty }
        Thread.sleep(forTimeInterval: 5)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        let pings = listener.times(of: "WATCHDOG=1")
        #expect(pings.count >= 8, "\(pings.count) pings in 5 s with WATCHDOG_USEC = 1 s")
    }
}

/// `waymark run` as a notify service with a watchdog, on a real gpsd that reads a stretch of the Regensburg drive
/// at its own pace (looped), with `settings` added to its configuration; everything goes when this does.
private final class NotifiedRun {
    let run: OperatedRun
    let listener: NotifyListener
    var agent: WaymarkBinary.Running { run.agent }
    var directory: URL { run.directory }

    /// - Parameter onReceive: called on the listener's thread with the spool's path and each datagram as it arrives.
    init(
        from start: Double,
        to end: Double,
        speed: Double,
        watchdogMicroseconds: Int,
        settings: String,
        onReceive: @escaping @Sendable (_ spool: String, [String]) -> Void = { _, _ in }
    ) throws {
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let directory = try Fixtures.temporaryDirectory()
        let spool = directory.appendingPathComponent("state/spool.sqlite").path
        listener = try NotifyListener(in: directory) { onReceive(spool, $0) }
        run = try OperatedRun(
            segments: [log.epochs(from: start, to: end)],
            speed: speed,
            settings: settings,
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "\(watchdogMicroseconds)"],
            directory: directory
        )
    }

    deinit { listener.stop() }
}

/// Whether the spool existed each time READY=1 arrived.
private final class SpoolAtReady: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Bool] = []
    func record(_ value: Bool) { lock.withLock { recorded.append(value) } }
    var values: [Bool] { lock.withLock { recorded } }
}
