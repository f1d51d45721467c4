import Glibc
import Logging
import WaymarkCore
import WaymarkFormats
import WaymarkGPSD
import WaymarkSystem

/// What the running agent says of itself outside its events: the status file in `[agent] runtime_dir` that
/// `waymark status` reads, and the metrics textfile of `[metrics] textfile`. Both are replaced atomically
/// (``ReplacedFile``), without fsync: they describe the moment, not the record.
///
/// The status file is rewritten within a second of a change `waymark status` shows (a connection, a pause, a
/// trip, an alarm, an error), at most once a second, and at once when `waymark status` asks (SIGWINCH): the
/// figures that move with every fix are fresh when someone looks, and a drive does not rewrite it every second.
/// The metrics, the free space and the sinks' backlogs follow `[metrics] interval`; only the metrics wake a
/// paused agent for it, once per interval.
final class OperationsOutput {
    private let statusFile: ReplacedFile
    private let metricsFile: ReplacedFile?
    private let interval: Duration
    private let settings: Configuration
    private let logger: Logger
    /// This process, as the status file names it.
    private let process = ProcessIdentity.current
    /// The state directory this agent holds, resolved: `waymark status` checks that the file is its agent's.
    private let stateDirectory: String
    private let started: MonotonicInstant
    private var lastStatusWrite: MonotonicInstant?
    /// When a change waits to be written.
    private var statusDue: MonotonicInstant?
    private var nextTick: MonotonicInstant
    private var statusFailing = false
    private var metricsFailing = false
    /// Status files written, for the measurement of their cost.
    private(set) var statusWrites = 0
    /// Bytes of metrics textfiles written.
    private var metricsBytes: Int64 = 0
    /// The status file's text, kept for its storage.
    private var statusText: [UInt8] = []
    /// The textfile's text, laid out once.
    private var metrics = MetricsText()
    /// CPU the status files and the metrics took, in nanoseconds of the thread's own time.
    private var ownCPU: Int64 = 0
    /// The fleet's status publisher, offered the status at each status file and every `[fleet] status_interval`.
    private let fleet: FleetLink?
    private let fleetInterval: Duration
    private var nextFleetOffer: MonotonicInstant

    /// The calling thread's CPU time (user and system), in nanoseconds.
    static func threadCPU() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The process's CPU time (user and system, all threads), in nanoseconds.
    static func processCPU() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The status file's name in `[agent] runtime_dir`.
    static let statusFileName = "status.json"

    init(configuration: Configuration, now: MonotonicInstant, logger: Logger, fleet: FleetLink? = nil) {
        self.fleet = fleet
        fleetInterval = configuration.fleet.statusInterval
        nextFleetOffer = now
        statusFile = ReplacedFile(path: Self.statusPath(configuration), mode: 0o640)
        // Readable by node_exporter, which runs as another user.
        metricsFile = configuration.metrics.textfile.map { ReplacedFile(path: $0, mode: 0o644) }
        interval = configuration.metrics.interval
        tickDelay = min(Self.tickSlack, configuration.metrics.interval / 2)
        settings = configuration
        stateDirectory = AgentLock.canonicalPath(configuration.agent.stateDirectory)
        self.logger = logger
        started = now
        nextTick = now
        statusDue = now
    }

    /// `[agent] runtime_dir`/status.json.
    static func statusPath(_ configuration: Configuration) -> String {
        let directory = configuration.agent.runtimeDirectory
        return (directory.hasSuffix("/") ? directory : directory + "/") + statusFileName
    }

    /// When ``update(_:now:wallClock:requested:)`` next has something to do: a change to write, and with a
    /// textfile the metrics' tick, ``tickSlack`` after it is due. Without one, the periodic checks wake nothing:
    /// they run with the first input after their interval (a fix, a probe of a paused agent, a sink's retry).
    var nextDeadline: MonotonicInstant? {
        .earliest(statusDue, metricsFile == nil ? nil : nextTick + tickDelay)
    }

    /// How long a due tick waits for an input to ride on (at most half the interval): a driving agent's ticks
    /// come right after a fix, with no wake-up of their own; a paused agent's come this much after the interval.
    static let tickSlack = Duration.seconds(2)

    /// ``tickSlack``, at most half the interval.
    private let tickDelay: Duration

    /// After each input: the periodic checks and the metrics when their interval passed, the status file when
    /// a change is due or `requested`. Failures become one `error` event each (`operations_output`) and a log
    /// line, until the file can be written again.
    func update(_ core: inout AgentCore, now: MonotonicInstant, wallClock: Timestamp, requested: Bool = false) {
        var reports: [ErrorReport] = []
        if now >= nextTick {
            core.checkResources(freeSpace: freeSpace(), now: now, wallClock: wallClock)
            if let metricsFile { reports += writeMetrics(core, to: metricsFile, now: now, wallClock: wallClock) }
            let missed = (now - nextTick) / interval
            nextTick = nextTick + interval * (Int(missed) + 1)
        }
        if core.operatingChanged() {
            let earliest = lastStatusWrite.map { $0 + .seconds(1) } ?? now
            statusDue = min(statusDue ?? earliest, max(earliest, now))
        }
        if requested { statusDue = now }
        var wroteStatus = false
        if let due = statusDue, due <= now {
            statusDue = nil
            reports += writeStatus(core, now: now, wallClock: wallClock)
            wroteStatus = true
        }
        // The fleet's status rides on the status file's changes, and on the first input after its interval for
        // the figures that move with every fix: it wakes nothing of its own.
        if let fleet, wroteStatus || now >= nextFleetOffer {
            fleet.offer(core.fleetStatus(device: settings.agent.deviceID, now: now, wallClock: wallClock))
            nextFleetOffer = now + fleetInterval
        }
        if !reports.isEmpty { core.report(reports, now: now, wallClock: wallClock) }
    }

    /// The agent stops: the status file says so, and the metrics give the final counts.
    /// The fleet's last status, `online: false`: before the storage closes the sinks, which may cancel the MQTT
    /// session the fleet shares with the OwnTracks sink.
    func finishFleet(_ core: AgentCore, now: MonotonicInstant, wallClock: Timestamp) {
        fleet?.finish(core.fleetStatus(device: settings.agent.deviceID, now: now, wallClock: wallClock))
    }

    func finish(_ core: AgentCore, now: MonotonicInstant, wallClock: Timestamp) {
        _ = writeStatus(core, now: now, wallClock: wallClock, stopped: true)
        statusFile.close()
        fleet?.close()
        if let metricsFile {
            _ = writeMetrics(core, to: metricsFile, now: now, wallClock: wallClock)
            metricsFile.close()
        }
    }

    private func writeStatus(
        _ core: AgentCore,
        now: MonotonicInstant,
        wallClock: Timestamp,
        stopped: Bool = false
    ) -> [ErrorReport] {
        let cpuBefore = Self.threadCPU()
        defer { ownCPU += Self.threadCPU() - cpuBefore }
        lastStatusWrite = now
        statusText.removeAll(keepingCapacity: true)
        JSONObjectWriter.write(into: &statusText) { writer in
            writer.string("version", Agent.release)
            writer.string("libgps", LibGPS.apiVersion)
            writer.integer("pid", Int64(process.pid))
            if let ticks = process.startTicks { writer.integer("process_start", Int64(ticks)) }
            writer.string("device_id", settings.agent.deviceID)
            writer.string("state_dir", stateDirectory)
            writer.string("state", stopped ? "stopped" : "running")
            writer.number("uptime", ((now - started).secondsValue * 1000).rounded() / 1000)
            writer.number("written_monotonic", Double(now.nanoseconds) / 1e9)
            core.writeStatus(into: &writer, now: now, wallClock: wallClock)
        }
        statusWrites += 1
        return written(statusText, to: statusFile, failing: &statusFailing, what: "[agent] runtime_dir status file")
    }

    private func writeMetrics(
        _ core: AgentCore,
        to file: ReplacedFile,
        now: MonotonicInstant,
        wallClock: Timestamp
    )
        -> [ErrorReport]
    {
        let cpuBefore = Self.threadCPU()
        defer { ownCPU += Self.threadCPU() - cpuBefore }
        metrics.removeAll()
        metrics.append(.buildInfo, 1)
        metrics.append(.startTime, (wallClock.secondsSince1970 - (now - started).secondsValue).rounded())
        metrics.append(.statusWrites, Double(statusWrites))
        metrics.append(.cpu, Double(Self.processCPU()) / 1e9)
        metrics.append(.operationsCPU, Double(ownCPU) / 1e9)
        core.writeMetrics(into: &metrics, metricsBytes: metricsBytes, now: now, wallClock: wallClock)
        let text = metrics.render()
        metricsBytes += Int64(text.count)
        return written(text, to: file, failing: &metricsFailing, what: "[metrics] textfile")
    }

    /// Replaces `file`'s contents; on failure, the report to emit when it is new.
    private func written(_ bytes: [UInt8], to file: ReplacedFile, failing: inout Bool, what: String) -> [ErrorReport] {
        do {
            try file.write(bytes)
            if failing { logger.notice("the \(what) \(file.path) is written again") }
            failing = false
            return []
        } catch {
            guard !failing else { return [] }
            failing = true
            let message = "the \(what) cannot be written: \(error); the agent goes on tracking"
            logger.error("\(message)")
            return [ErrorReport(code: .operationsOutput, message: message, subject: file.path)]
        }
    }

    /// The free space of the directories the agent writes to the SD card.
    private func freeSpace() -> [(setting: String, path: String, bytes: Int64?)] {
        var directories = [("[agent] state_dir", settings.agent.stateDirectory)]
        if settings.fileSink.enabled && settings.agent.logDirectory != settings.agent.stateDirectory {
            directories.append(("[agent] log_dir", settings.agent.logDirectory))
        }
        return directories.map { ($0.0, $0.1, Self.freeBytes($0.1)) }
    }

    /// The bytes an unprivileged process may still write on the file system of `path`.
    static func freeBytes(_ path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}
