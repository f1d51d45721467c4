import Logging
import WaymarkCore
import WaymarkStore
import WaymarkUplink

/// The spool and its sinks as the agent drives them: events are appended as they are emitted, committed
/// every `[spool] commit_interval` (at once for `pause`, `region` and `trip`), and after each commit the
/// released ones — all of them, or the closed deferral windows' — go to the sinks.
///
/// Failures never stop the agent: a commit that fails keeps its events in memory and is tried again, a sink
/// that fails is tried again from its cursor; each says so once, as an error event and a log line.
final class Storage {
    let spool: Spool
    private let drivers: [SinkDriver]
    /// The network sinks, each on its own thread; they take the released events themselves.
    private let uplinks: [UplinkWorker]
    /// The last cursor of each network sink handed to a commit.
    private var uplinkCursors: [String: UInt64] = [:]
    /// The cursors of the network sinks that are enabled but could not start: what they lack stays in the spool.
    private var unstartedCursors: [String: UInt64] = [:]
    private var unstartedSince: MonotonicInstant
    /// Whether a network sink moved or failed since ``takeUplinksChanged()``.
    private var uplinksChanged = false
    /// For each network sink, the releases it has not caught up with: the last `seq` released and when, oldest
    /// first. The first says since when it is behind; a sink that keeps up with a drive never is, though new
    /// events are always on their way.
    private var releases: [String: [(seq: UInt64, at: MonotonicInstant)]] = [:]
    /// The clock of commits and retries: the monotonic clock of the process, in replay too (the commits'
    /// cadence is about the disk, not about the recording).
    private let clock: () -> MonotonicInstant
    private let settings: SpoolSettings
    private let logger: Logger
    private var pending = SpoolCommit()
    /// The odometer last handed to a commit, metres.
    private var savedOdometer: Double?
    /// The `waymark odometer set` request whose value (metres) waits for a commit: removed once that commit is
    /// written, unless a newer request replaced it meanwhile.
    private(set) var odometerRequest: (request: OdometerRequest, metres: Double)?
    /// When what waits is committed.
    private var schedule: CommitSchedule
    /// The last `seq` committed.
    private(set) var committed: UInt64
    /// The last `seq` appended.
    private var appended: UInt64
    /// The last `seq` the sinks may have: the end of the last closed deferral window, or every event.
    private(set) var released: UInt64
    /// What the start found: the last `seq`, and a deferral window a crash left open.
    let recovered: SpoolState
    /// The sinks that failed, by name, until they deliver again.
    private var failingSinks: Set<String> = []
    /// Since when each sink that is behind has had committed, released events it did not take (a failure, or a
    /// delivery that cannot keep up), on the monotonic clock.
    private var behindSince: [String: MonotonicInstant] = [:]
    private var commitFailing = false
    /// Transactions committed that held events.
    private(set) var commits = 0
    /// Transactions committed, with events or only cursors and state: each syncs the WAL.
    private(set) var transactions = 0
    /// How long each transaction took, on the monotonic clock.
    private(set) var commitDurations = Histogram(bounds: Histogram.commitBounds)
    /// Bytes of the event lines committed since the start.
    private(set) var bytesCommitted: Int64 = 0
    /// Events dropped to make room, by `type`, since the spool was made.
    private(set) var drops: [String: Int]
    /// When a failed commit or delivery is tried again.
    private var retryAt: MonotonicInstant?
    /// The time of the first committed event after a sink's cursor, as the spool last said it: it changes only
    /// when the cursor moves or events are dropped to make room.
    private var firstCommittedAfter: [String: (cursor: UInt64, time: Timestamp)] = [:]
    /// Events kept in memory at most while commits fail; past it the oldest routine ones go.
    static let memoryLimit = 100_000

    /// - Parameters:
    ///   - sinks: the sinks, each with its cursor taken from the spool.
    ///   - uplinks: the network sinks' transports and delivery settings; their threads start at once, from their
    ///     cursors (a sink new to the spool from its oldest event). `wake` wakes the agent's loop to take their
    ///     progress (``pollUplinks(now:)``).
    ///   - unstarted: network sinks that are enabled but could not start (a library or a file missing): their
    ///     events are kept for them, as undelivered, and they show as failing.
    ///   - startingNow: network sinks with `start = "now"`: one the spool holds no cursor for starts after
    ///     the last event it holds, a cursor saved with the next commit.
    init(
        spool: Spool,
        sinks: [any Sink],
        uplinks: [Uplink] = [],
        unstarted: [String] = [],
        startingNow: Set<String> = [],
        wake: @escaping @Sendable () -> Void = {},
        settings: SpoolSettings,
        clock: @escaping () -> MonotonicInstant,
        logger: Logger
    ) throws(SpoolError) {
        self.spool = spool
        self.clock = clock
        self.settings = settings
        self.logger = logger
        schedule = CommitSchedule(interval: settings.commitInterval)
        var state = try spool.load()
        // A sink that holds more than the spool (its database was lost, or its WAL torn): never number an
        // event again that a sink already has.
        let highest = sinks.compactMap(\.lastDelivered).max() ?? 0
        if highest > state.lastSeq {
            logger.warning(
                "the sinks hold events up to \(highest), the spool only up to \(state.lastSeq): numbering goes on after \(highest)"
            )
            state.lastSeq = highest
            pending.seqFloor = highest
        }
        // A network sink new to the spool: from its oldest event, or after the last one now. Either start is
        // saved, so that a later `start` changes nothing for a sink that has begun.
        var newCursors: [String: UInt64] = [:]
        for name in uplinks.map(\.transport.name) + unstarted where state.cursors[name] == nil {
            newCursors[name] = startingNow.contains(name) ? state.lastSeq : 0
        }
        state.cursors.merge(newCursors) { old, _ in old }
        // From the cursor, not from what a sink says it holds: a power cut may have kept a sink's later file and
        // lost lines of an earlier one; the sink skips what each of its files holds.
        drivers = sinks.map { SinkDriver(sink: $0, cursor: state.cursors[$0.name] ?? 0) }
        self.uplinks = uplinks.map { uplink in
            UplinkWorker(
                transport: uplink.transport,
                spool: spool,
                cursor: state.cursors[uplink.transport.name] ?? 0,
                settings: uplink.settings,
                maxBytesPerDay: uplink.maxBytesPerDay,
                logger: logger,
                wake: wake
            )
        }
        for worker in self.uplinks { uplinkCursors[worker.name] = worker.current.cursor }
        unstartedCursors = Dictionary(uniqueKeysWithValues: unstarted.map { ($0, state.cursors[$0] ?? 0) })
        unstartedSince = clock()
        recovered = state
        savedOdometer = state.odometer
        drops = state.drops
        committed = state.lastSeq
        appended = state.lastSeq
        released = state.windowStart.map { $0 - 1 } ?? state.lastSeq
        if !newCursors.isEmpty {
            // Saved with the first commit: a restart before the first delivery must not start it later still.
            pending.cursors.merge(newCursors) { $1 }
            schedule.somethingWaits(at: clock())
            let now = newCursors.keys.filter(startingNow.contains).sorted()
            if !now.isEmpty {
                logger.notice(
                    "network sinks start now, after the events the spool holds",
                    metadata: ["sinks": "\(now)", "after_seq": "\(state.lastSeq)"]
                )
            }
        }
        for worker in self.uplinks {
            worker.start()
            worker.release(through: released)
            // A backlog from before the start is behind from now on.
            if released > worker.current.cursor { releases[worker.name] = [(released, clock())] }
        }
    }

    /// When ``commitIfDue()`` next has something to do: a retry, or the commit of what waits.
    var nextDeadline: MonotonicInstant? { .earliest(retryAt, commitFailing ? nil : schedule.deadline) }

    /// Takes a numbered event; committed with the next commit.
    func append(_ event: StoredEvent) {
        pending.events.append(event)
        appended = max(appended, event.seq)
        schedule.eventWaits(at: clock(), urgent: event.kind == .pause || event.kind == .region || event.kind == .trip)
    }

    /// A deferral window opened at `seq`: its events wait for its end.
    func windowOpened(at seq: UInt64) {
        pending.writesWindow = true
        pending.windowStart = seq
    }

    /// The window ended with the event `seq` (its `deferred_finished`), or deferral is off and every event
    /// up to `seq` may go: the sinks get them after their commit.
    func release(through seq: UInt64, closingWindow: Bool) {
        released = max(released, seq)
        if closingWindow {
            pending.writesWindow = true
            pending.windowStart = nil
        }
    }

    /// Saves the regions the vehicle is inside with the next commit.
    func saveInside(_ ids: [String]) { pending.insideRegions = ids }

    /// Saves the trip in progress with the next commit, so that a power cut does not lose it.
    func saveOpenTrip(_ trip: TripSummary) { pending.openTrip = .save(trip) }

    /// Saves the odometer (metres) with a commit within `commit_interval`, when it moved by a millimetre or more
    /// since the last save, or when `request` (`waymark odometer set`) set it: the request is removed once that
    /// commit is written.
    func saveOdometer(_ metres: Double, asked request: OdometerRequest? = nil) {
        if let request { odometerRequest = (request, metres) }
        guard request != nil || abs(metres - (savedOdometer ?? -1)) >= 0.001 else { return }
        pending.odometer = metres
        savedOdometer = metres
        schedule.somethingWaits(at: clock())
    }

    /// A commit that held the odometer was written: the request it carried is done (a newer one in its place
    /// waits to be taken).
    private func odometerCommitted() {
        if let (request, metres) = odometerRequest, request.read() == metres { request.remove() }
        odometerRequest = nil
    }

    /// The trip ended (its `trip` event is in this commit): the saved one is forgotten with it.
    func clearOpenTrip() { pending.openTrip = .clear }

    /// Commits when the interval has passed (or an urgent event waits), or will before the next event is due
    /// (``CommitSchedule/early``), or a retry is due; then hands the released events to the sinks. Returns the
    /// reports to emit as events: drops, and failures that are new. Called at each input and alarm.
    func commitIfDue() -> [ErrorReport] {
        let now = clock()
        let reports = pollUplinks(now: now)
        let due = retryAt.map { $0 <= now } ?? false || (!commitFailing && schedule.isDue(at: now))
        guard due else { return reports }
        return reports + commit(now: now)
    }

    /// Takes the network sinks' progress into the next commit (due within `commit_interval`), and returns their
    /// failures to emit.
    func pollUplinks(now: MonotonicInstant) -> [ErrorReport] {
        var reports: [ErrorReport] = []
        for worker in uplinks {
            let progress = worker.takeProgress()
            reports += progress.reports
            let moved = progress.cursor > uplinkCursors[worker.name] ?? 0
            if moved || !progress.reports.isEmpty || progress.changed { uplinksChanged = true }
            guard moved || !progress.quarantined.isEmpty else { continue }
            uplinkCursors[worker.name] = progress.cursor
            pending.cursors[worker.name] = progress.cursor
            pending.quarantined += progress.quarantined
            schedule.somethingWaits(at: now)
        }
        return reports
    }

    /// Commits everything pending and delivers.
    func commit(now: MonotonicInstant) -> [ErrorReport] {
        retryAt = nil
        let commit = takePending()
        var reports: [ErrorReport] = []
        if settings.commitInterval == .zero && commit.events.count > 1 {
            // Every event alone, the most durable and the wear that group commit saves; the window, cursors
            // and regions go with the last, so they never get ahead of the events.
            for (index, event) in commit.events.enumerated() {
                var single = commit
                single.events = [event]
                if index < commit.events.count - 1 { single.keepingEventsOnly() }
                reports += write(single)
                if commitFailing {
                    var rest = commit
                    rest.events = Array(commit.events[(index + 1)...])
                    pending.merge(rest)
                    break
                }
            }
        } else {
            reports += write(commit)
        }
        if commitFailing {
            retryAt = now + Self.retryInterval
            return reports
        }
        reports += deliver()
        if !failingSinks.isEmpty { retryAt = now + Self.retryInterval }
        return reports
    }

    /// How long a failed commit or delivery waits before it is tried again.
    static let retryInterval = Duration.seconds(5)

    /// The final commit: pending events, then the sinks; the network sinks get up to ``drainTime`` to deliver
    /// what is released (what they have not sent then goes at the next start); then the cursors.
    func close() -> [ErrorReport] {
        var reports = commit(now: clock())
        if !uplinks.isEmpty {
            // All at once: each has the whole drain time, and the cancellations overlap.
            for worker in uplinks { worker.beginStop(drainingFor: Self.drainTime) }
            for worker in uplinks { worker.finishStop() }
            reports += pollUplinks(now: clock())
        }
        reports += write(takePending())
        return reports
    }

    /// How long a clean stop waits for the network sinks to deliver the last events: short enough for systemd's
    /// stop timeout, long enough for a trip's end over a cellular link.
    static let drainTime = Duration.seconds(3)

    /// Every sink has the events up to this `seq`.
    private var delivered: UInt64 {
        (drivers.map(\.cursor) + uplinks.map(\.current.cursor) + unstartedCursors.values).min() ?? 0
    }

    /// Events some sink does not have yet (deferred, or waiting for a sink); nil without sinks.
    var unsent: UInt64? {
        drivers.isEmpty && uplinks.isEmpty && unstartedCursors.isEmpty ? nil : appended - min(delivered, appended)
    }

    /// What a sink does not have yet.
    struct Backlog {
        var name: String
        /// Events after its cursor, deferred ones included.
        var unsent: UInt64
        /// The time of the first of them.
        var oldestUnsent: Timestamp?
        /// Whether its last delivery failed.
        var failing: Bool
    }

    /// Each sink's backlog; reads the spool for the oldest event of a sink whose cursor moved since the last call
    /// (one indexed lookup).
    func backlog() -> [Backlog] {
        let sinks =
            drivers.map { ($0.sink.name, $0.cursor, failingSinks.contains($0.sink.name)) }
            + uplinks.map { worker in
                let standing = worker.current
                return (worker.name, standing.cursor, standing.failure != nil)
            }
            + unstartedCursors.sorted { $0.key < $1.key }.map { ($0.key, $0.value, true) }
        return sinks.map { name, cursor, failing in
            var backlog = Backlog(name: name, unsent: appended - min(cursor, appended), failing: failing)
            guard backlog.unsent > 0 else { return backlog }
            var first: Timestamp?
            if cursor < committed {
                if let known = firstCommittedAfter[name], known.cursor == cursor {
                    first = known.time
                } else if let time = try? spool.firstTime(after: cursor) {
                    first = time
                    firstCommittedAfter[name] = (cursor, time)
                }
            }
            backlog.oldestUnsent = first ?? pending.events.first { $0.seq > cursor }?.time
            return backlog
        }
    }

    /// Since when each sink has not taken the events committed and released to it; nil for one that has them.
    var sinksBehind: [(name: String, since: MonotonicInstant?)] {
        drivers.map { ($0.sink.name, behindSince[$0.sink.name]) }
            + uplinks.map { worker in
                // A network sink delivers on its own thread: behind since the oldest release it still lacks.
                let cursor = worker.current.cursor
                releases[worker.name]?.removeAll { $0.seq <= cursor }
                return (worker.name, releases[worker.name]?.first?.at)
            }
            + unstartedCursors.sorted { $0.key < $1.key }.map { name, cursor in
                (name, cursor < min(released, committed) ? unstartedSince : nil)
            }
    }

    /// Whether a network sink moved its cursor or started failing since the last call: its alarms are then
    /// checked at once.
    func takeUplinksChanged() -> Bool {
        defer { uplinksChanged = false }
        return uplinksChanged
    }

    /// The network sinks, as they stand now.
    var uplinkStandings: [(name: String, standing: UplinkWorker.Standing)] {
        uplinks.map { ($0.name, $0.current) }
    }

    /// Bytes written and fsyncs made by the sinks to local files.
    var sinkWrites: (bytes: Int64, syncs: Int) {
        drivers.reduce((0, 0)) { ($0.0 + $1.sink.localWrites.bytes, $0.1 + $1.sink.localWrites.syncs) }
    }

    private func takePending() -> SpoolCommit {
        var commit = pending
        pending = SpoolCommit()
        for driver in drivers {
            if let cursor = driver.takeCursorChange() { commit.cursors[driver.sink.name] = cursor }
        }
        commit.maxBytes = settings.maxBytes.bytes
        commit.delivered = delivered
        schedule.taken()
        return commit
    }

    private func write(_ commit: SpoolCommit) -> [ErrorReport] {
        guard !commit.isEmpty else { return [] }
        do {
            let started = clock()
            let drops = try spool.commit(commit)
            commitDurations.observe((clock() - started).secondsValue)
            transactions += 1
            if let last = commit.events.last {
                committed = max(committed, last.seq)
                commits += 1
            }
            bytesCommitted += commit.events.reduce(0) { $0 + Int64($1.line.count) }
            for (kind, count) in drops { self.drops[kind.description, default: 0] += count }
            if !drops.isEmpty { firstCommittedAfter = [:] }
            var reports: [ErrorReport] = []
            if commitFailing {
                commitFailing = false
                logger.notice("the spool commits again", metadata: ["spool": "\(spool.path)"])
            }
            if commit.odometer != nil { odometerCommitted() }
            if !drops.isEmpty {
                let counts = drops.sorted { $0.key.code < $1.key.code }.map { "\($0.value) \($0.key)" }
                let message =
                    "the spool is full ([spool] max_bytes = \(settings.maxBytes)): dropped \(counts.joined(separator: ", ")) events to make room"
                logger.warning("\(message)")
                reports.append(ErrorReport(code: .spoolFull, message: message))
            }
            return reports
        } catch {
            // Keep what failed for the next try (before anything that came since), in bounded memory.
            let later = pending
            pending = commit
            pending.merge(later)
            var reports: [ErrorReport] = []
            let dropped = pending.dropOldestRoutine(beyond: Self.memoryLimit)
            if !dropped.isEmpty {
                let counts = dropped.sorted { $0.key.code < $1.key.code }.map { "\($0.value) \($0.key)" }
                let message =
                    "the spool \(spool.path) still cannot be written: dropped \(counts.joined(separator: ", ")) "
                    + "events kept in memory beyond \(Self.memoryLimit)"
                logger.error("\(message)")
                reports.append(ErrorReport(code: .spoolFull, message: message))
            }
            guard !commitFailing else { return reports }
            commitFailing = true
            let message =
                "the spool \(spool.path) cannot be written: \(error); events are kept in memory and committed when it can"
            logger.error("\(message)")
            return reports + [ErrorReport(code: .spoolUnavailable, message: message)]
        }
    }

    private func deliver() -> [ErrorReport] {
        var reports: [ErrorReport] = []
        let through = min(released, committed)
        let now = clock()
        for driver in drivers {
            let name = driver.sink.name
            defer {
                if driver.cursor < through {
                    behindSince[name] = behindSince[name] ?? now
                } else {
                    behindSince[name] = nil
                }
            }
            do {
                try driver.deliver(from: spool, through: through)
                if failingSinks.remove(name) != nil { logger.notice("the \(name) sink delivers again") }
            } catch {
                guard failingSinks.insert(name).inserted else { continue }
                let message = "the \(name) sink failed: \(error); it retries from its last delivered event"
                logger.error("\(message)")
                reports.append(ErrorReport(code: .sinkFailure, message: message, subject: name))
            }
        }
        for worker in uplinks {
            worker.release(through: through)
            if through > releases[worker.name]?.last?.seq ?? worker.current.cursor {
                // One entry a minute at most: the alarm's threshold is far longer, and a sink down for days
                // keeps a short list.
                var list = releases[worker.name] ?? []
                if let last = list.last, now - last.at < .seconds(60) {
                    list[list.count - 1].seq = through
                } else {
                    list.append((through, now))
                }
                releases[worker.name] = list
            }
        }
        return reports
    }
}
