import Foundation
import Synchronization
import Testing
import WaymarkTestSupport

/// Issue 6's performance target, measured (not a timed test: it runs only from
/// `scripts/measure-paused-wakeups.sh`, which sets `WAYMARK_MEASURE_WAKEUPS=1`): how often a paused agent
/// wakes, and the CPU it uses, with power saving against the same agent paused without it, side by side on
/// one real gpsd reading a parked receiver at 1 epoch a second.
@Suite("Paused agent wake-ups (measurement)")
struct PausedWakeupsMeasurement {
    static let environment = ProcessInfo.processInfo.environment
    static let enabled = environment["WAYMARK_MEASURE_WAKEUPS"] == "1"

    /// The voluntary context switches of each thread of a process, by thread id, from /proc; and whether
    /// the thread is libdispatch's manager (its name ends in `qos.overcommit`), which on Linux runs the
    /// workqueue monitor: a timer that fires every second once libdispatch's worker pool has started
    /// (swift-corelibs-libdispatch, `src/event/workqueue.c`, `_dispatch_workq_init_once`). The agent's global jobs
    /// run on threads of its own (`GlobalExecutor`), which start no such pool: what it counts now is the rest.
    static func switches(of pid: Int32) -> [String: (count: Int, runtime: Bool)] {
        ProcessResources.threadSwitches(of: pid).mapValues { ($0.switches, $0.name.hasSuffix("qos.overcommit")) }
    }

    /// utime + stime of a process, in seconds (fields 14 and 15 of /proc/PID/stat, in clock ticks).
    static func cpuSeconds(of pid: Int32) -> Double {
        let stat = ProcessResources.readProcFile("/proc/\(pid)/stat")
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
        let ticks = fields.count > 12 ? (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0) : 0
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Voluntary context switches of a process over `seconds`, sampled every second: threads come and go
    /// (the concurrency runtime's pool), and a thread that exits takes its count along, so each thread is
    /// counted by its increments, from zero when it is new; one that exits loses at most its last second.
    /// Returns all of them, and those of the runtime's monitor thread.
    static func wakeups(of pid: Int32, over seconds: Int) -> (total: Int, runtime: Int) {
        var last = switches(of: pid)
        var total = 0
        var runtime = 0
        for _ in 0..<seconds {
            Thread.sleep(forTimeInterval: 1)
            let now = switches(of: pid)
            for (task, thread) in now {
                let increment = thread.count - (last[task]?.count ?? 0)
                total += increment
                if thread.runtime { runtime += increment }
            }
            last = now
        }
        return (total, runtime)
    }

    /// Each thread's name and voluntary context switches: which thread wakes.
    static func threads(of pid: Int32) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task in
            let name = ProcessResources.readProcFile("/proc/\(pid)/task/\(task)/comm").trimmingCharacters(in: .newlines)
            let status = ProcessResources.readProcFile("/proc/\(pid)/task/\(task)/status")
            let switches = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") } ?? ""
            return "  \(task) \(name): \(switches.split(separator: "\t").last ?? "")"
        }.joined(separator: "\n")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    @Test(.enabled(if: enabled))
    func wakeups() throws {
        let window = Double(Self.environment["WAYMARK_WINDOW"] ?? "") ?? 60
        let rounds = Int(Self.environment["WAYMARK_ROUNDS"] ?? "") ?? 3
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        let feed = try NMEAFeedServer(segments: [log.epochs(from: 870, to: 916)], speed: 2, loopLast: true)
        defer { feed.stop() }
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: nil)
        defer { gpsd.stop() }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // WAYMARK_WATCHDOG_SEC=N compares two agents saving power, one as a systemd service with WatchdogSec=N
        // (its notifications to a socket of this test), instead of power saving against none.
        let listener = try NotifyListener(in: directory)
        defer { listener.stop() }
        let watchdog = Self.environment["WAYMARK_WATCHDOG_SEC"].flatMap(Int.init)
        // WAYMARK_METRICS_INTERVAL=N compares two agents saving power, one writing the metrics every N seconds
        // (and its status file and health checks on that tick), the other with the tick once an hour.
        let metrics = Self.environment["WAYMARK_METRICS_INTERVAL"].flatMap(Int.init)
        // The metrics on a tmpfs, as docs/operations.md recommends (/dev/shm here); WAYMARK_TEXTFILE puts them
        // elsewhere: on ext4 each write and rename also waits once for the file system.
        let textfile = Self.environment["WAYMARK_TEXTFILE"] ?? "/dev/shm/waymark-measure-\(getpid()).prom"
        defer { try? FileManager.default.removeItem(atPath: textfile) }
        var variants: [(name: String, powerSave: Bool, environment: [String: String], settings: String)] =
            watchdog.map { seconds in
                [
                    ("no watchdog", true, [:], ""),
                    (
                        "WatchdogSec=\(seconds)", true,
                        ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "\(seconds * 1_000_000)"], ""
                    ),
                ]
            } ?? [("power_save = true", true, [:], ""), ("power_save = false", false, [:], "")]
        if let metrics {
            variants = [
                ("no metrics, interval 1h", true, [:], "[metrics]\ninterval = \"1h\"\n"),
                (
                    "metrics every \(metrics) s", true, [:],
                    "[metrics]\ntextfile = \"\(textfile)\"\ninterval = \"\(metrics)s\"\n"
                ),
            ]
        }
        // WAYMARK_DEAD_SINKS=1 compares two agents saving power, one with the batch HTTP and OwnTracks sinks
        // pointed at a port where nothing listens (their default backoff, 1 s doubling up to 5 min).
        if Self.environment["WAYMARK_DEAD_SINKS"] == "1" {
            let dead = try GPSDTestServer.freePort()
            variants = [
                ("no network sink", true, [:], ""),
                (
                    "dead sinks", true, [:],
                    "[sinks.http]\nenabled = true\nurl = \"http://127.0.0.1:\(dead)/batch\"\n"
                        + "[sinks.owntracks]\nenabled = true\nhost = \"127.0.0.1\"\nport = \(dead)\n"
                ),
            ]
        }
        // WAYMARK_FLEET=1 compares two agents saving power, one with [fleet] enabled on a real mosquitto (its
        // status retained, the MQTT keep-alive every [sinks.owntracks] keepalive, 60 s), the OwnTracks sink off.
        var broker: MosquittoTestServer?
        var statuses: URL?
        if Self.environment["WAYMARK_FLEET"] == "1" {
            let mosquitto = try MosquittoTestServer()
            broker = mosquitto
            statuses = try mosquitto.subscribe("owntracks/+/+/status", id: "fleet-measure")
            variants = [
                ("no fleet", true, [:], ""),
                (
                    "[fleet] on, idle", true, [:],
                    "[sinks.owntracks]\nhost = \"127.0.0.1\"\nport = \(mosquitto.port)\n[fleet]\nenabled = true\n"
                ),
            ]
        }
        defer { withExtendedLifetime(broker) {} }
        // WAYMARK_BEACONS=1 compares two agents saving power, one scanning for beacons on its paused duty cycle
        // (10 s of every minute) through a real dbus-daemon with the BlueZ stand-in, a beacon advertising once a
        // second, heard while the adapter discovers.
        var bluez: BlueZTestBus?
        var advertiser: Thread?
        if Self.environment["WAYMARK_BEACONS"] == "1" {
            let bus = try BlueZTestBus()
            try bus.send(["op": "adapter", "name": "hci0"])
            bluez = bus
            advertiser = Thread {
                let path = (try? bus.send(["op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:01"])) as? String
                let frame = BlueZTestBus.iBeaconData(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 1, minor: 1)
                // Heard only while the adapter discovers, as BlueZ reports advertisements only then.
                while !Thread.current.isCancelled, let path {
                    if (try? bus.send(["op": "discovering", "name": "hci0"])) as? Bool == true {
                        _ = try? bus.send(["op": "advertise", "path": path, "rssi": -60, "data": frame])
                    }
                    Thread.sleep(forTimeInterval: 1)
                }
            }
            advertiser?.start()
            variants = [
                ("no beacons", true, [:], ""),
                (
                    "beacons on their duty cycle", true, [:],
                    "[beacons]\nenabled = true\nbus = \"\(bus.address)\"\nscan_interval = \"1m\"\nscan_window = \"10s\"\n"
                ),
            ]
        }
        defer {
            advertiser?.cancel()
            withExtendedLifetime(bluez) {}
        }
        var agents: [(name: String, agent: WaymarkBinary.Running)] = []
        for (index, (name, powerSave, environment, settings)) in variants.enumerated() {
            let config = directory.appendingPathComponent("\(index).toml").path
            let probeInterval = Self.environment["WAYMARK_PROBE_INTERVAL"] ?? "2m"
            let agentSection = Fixtures.isolatedSections(
                in: directory.appendingPathComponent("\(index)"),
                besides: settings
            )
            try
                "\(agentSection)[activity]\npause_after = \"5s\"\npower_save = \(powerSave)\nprobe_interval = \"\(probeInterval)\"\n\(settings)"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let agent = try WaymarkBinary.start(
                ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--log-level", "debug"],
                adding: environment
            )
            agents.append((name, agent))
        }
        for (name, agent) in agents {
            try agent.wait(seconds: 60, "\(name): the pause") { agent.stdout.contains("\"type\":\"pause\"") }
        }
        Thread.sleep(forTimeInterval: 2)
        var rates: [String: [Double]] = [:]
        var ownRates: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        for round in 1...rounds {
            let pids = agents.map { $0.agent.process.processIdentifier }
            let cpuBefore = pids.map(Self.cpuSeconds(of:))
            let probesBefore = agents.map { $0.agent.stderr.components(separatedBy: "watching the receiver").count }
            // Both agents are sampled side by side, one second at a time.
            let counted = Mutex([(total: 0, runtime: 0), (total: 0, runtime: 0)])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let count = Self.wakeups(of: pids[index], over: Int(window))
                counted.withLock { $0[index] = count }
            }
            let counts = counted.withLock { $0 }
            for (index, (name, agent)) in agents.enumerated() {
                let rate = Double(counts[index].total) / window
                let own = Double(counts[index].total - counts[index].runtime) / window
                let seconds = Self.cpuSeconds(of: pids[index]) - cpuBefore[index]
                let probes = agent.stderr.components(separatedBy: "watching the receiver").count - probesBefore[index]
                if Self.environment["WAYMARK_THREADS"] == "1" { print(Self.threads(of: pids[index])) }
                rates[name, default: []].append(rate)
                ownRates[name, default: []].append(own)
                cpu[name, default: []].append(seconds)
                print(
                    "round \(round) \(name): \(String(format: "%.2f", rate)) voluntary wake-ups/s "
                        + "(\(String(format: "%.2f", own)) outside libdispatch's 1 Hz monitor), "
                        + "\(String(format: "%.2f", seconds)) CPU s in \(Int(window)) s, \(probes) probes"
                )
            }
        }
        func summary(_ name: String) -> String {
            let format = { (values: [Double]?) in String(format: "%.2f", Self.median(values ?? [])) }
            return "\(name): \(format(rates[name])) wake-ups/s (\(format(ownRates[name])) outside the monitor), "
                + "\(format(cpu[name])) CPU s"
        }
        let (first, second) = (variants[0].name, variants[1].name)
        let ratio = Self.median(rates[first] ?? []) / max(Self.median(rates[second] ?? []), 0.001)
        print(
            "median over \(rounds) rounds of \(Int(window)) s: \(summary(first)); \(summary(second)); "
                + "ratio \(String(format: "%.3f", ratio)), difference "
                + String(format: "%.3f", Self.median(rates[second] ?? []) - Self.median(rates[first] ?? []))
                + " wake-ups/s"
        )
        if watchdog != nil {
            print("\(listener.times(of: "WATCHDOG=1").count) watchdog pings received")
            // Issue 16: the watchdog and the status line add at most 0.1 wake-ups a second to a paused agent.
            let added = Self.median(rates[second] ?? []) - Self.median(rates[first] ?? [])
            #expect(added <= 0.1, "the watchdog adds \(added) wake-ups a second")
        }
        if let metrics {
            // Issue 17: the metrics, the status file and the health checks add at most one wake-up per interval.
            let added = Self.median(rates[second] ?? []) - Self.median(rates[first] ?? [])
            print(
                "added \(String(format: "%.3f", added)) wake-ups/s; one per interval is \(String(format: "%.3f", 1 / Double(metrics)))"
            )
            #expect(added <= 1 / Double(metrics) + 0.02, "the metrics add \(added) wake-ups a second")
        }
        if Self.environment["WAYMARK_DEAD_SINKS"] == "1" {
            // Issue 18: a sink retrying against a dead server adds no busy loop, only its backoff's attempts.
            let added = Self.median(rates[second] ?? []) - Self.median(rates[first] ?? [])
            print("added \(String(format: "%.3f", added)) wake-ups/s by two dead sinks")
            #expect(added <= 0.2, "two dead sinks add \(added) wake-ups a second")
        }
        if bluez != nil {
            let added = Self.median(rates[second] ?? []) - Self.median(rates[first] ?? [])
            print("added \(String(format: "%.3f", added)) wake-ups/s by beacon scanning on its duty cycle")
        }
        if let statuses {
            let messages = MosquittoTestServer.messages(in: statuses)
            let bytes = messages.last.map { (try? JSONSerialization.data(withJSONObject: $0.payload).count) ?? 0 } ?? 0
            print(
                "status messages: \(messages.count) since the start (the first at the connection), about \(bytes) "
                    + "bytes each"
            )
        }
        for (_, agent) in agents { _ = agent.interrupt() }
        // The agent's own threads; libdispatch's monitor, were it running, would add once a second (printed above).
        let own = Self.median(ownRates[variants[0].name] ?? [])
        #expect(own <= 1, "a paused agent with power saving wakes at most once a second on average")
    }
}
