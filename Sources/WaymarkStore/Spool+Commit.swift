import WaymarkCore

/// What one commit writes, in one transaction.
public struct SpoolCommit: Sendable {
    /// New events, in `seq` order.
    public var events: [StoredEvent] = []
    /// The sinks' cursors that moved since the last commit.
    public var cursors: [String: UInt64] = [:]
    /// Events the sinks' servers refused since the last commit.
    public var quarantined: [QuarantinedEvent] = []
    /// Whether ``windowStart`` is written.
    public var writesWindow = false
    /// The first `seq` of the deferral window now open, nil when none is.
    public var windowStart: UInt64?
    /// The regions the vehicle is inside, when that set changed.
    public var insideRegions: [String]?
    /// The trip in progress to save (`save`), or to forget because it ended (`clear`).
    public var openTrip: OpenTripChange?
    /// The odometer, metres, when it moved: saved in the same transaction as the events of the fixes that moved
    /// it, so a crash neither loses committed distance nor counts it twice. It rides in the row of the commit's
    /// last event, whose page the commit writes anyway; `state` takes it only from a commit without events, and
    /// before room making may remove the row that carries it (one page fewer in most commits: docs/performance.md,
    /// "Flash wear").
    public var odometer: Double?
    /// The number the next event must be above, when it is above every committed one (a fresh spool after a
    /// sink saw higher numbers): `seq` is never reused.
    public var seqFloor: UInt64?
    /// Every sink has delivered the events up to this `seq`: when room is needed they go first, and their
    /// removal is no drop.
    public var delivered: UInt64 = 0
    /// The most the events may take (``Spool/rowBytes(_:)``); past it the commit makes room.
    public var maxBytes: Int64 = .max

    public init() {}

    /// What a commit does with the saved trip in progress.
    public enum OpenTripChange: Sendable, Equatable {
        case save(TripSummary)
        case clear
    }

    /// Whether the commit writes anything.
    public var isEmpty: Bool {
        events.isEmpty && cursors.isEmpty && quarantined.isEmpty && !writesWindow && insideRegions == nil
            && seqFloor == nil
            && openTrip == nil
            && odometer == nil
    }
}

extension Spool {
    /// Commits `commit` in one transaction, making room first when the events would take more than
    /// `maxBytes`; returns the undelivered events dropped for room, by kind.
    ///
    /// The drop policy, until the events take at most 90 % of `maxBytes` (so that a full spool does not make
    /// room at every commit): first the delivered events that are not `region`, `pause`, `resume`, `trip`
    /// or `deferred_finished`, oldest first (no drop: every sink has them); then the undelivered routine
    /// events (`location`, `heading`, `status`) are thinned, every other one from the oldest, as often as
    /// needed, so the track keeps its shape; then the undelivered `error` and `region_state` events, and the
    /// routine ones thinning left, oldest first; then delivered `region`, `pause`, `resume`, `trip` and `deferred_finished` events; and only
    /// then undelivered ones. The newest event is never removed, so the last `seq` is never forgotten.
    @discardableResult
    public func commit(_ commit: SpoolCommit) throws(SpoolError) -> [StoredEvent.Kind: Int] {
        guard !commit.isEmpty else { return [:] }
        do {
            // One commit at a time, so that the used bytes and the sweep read before a transaction are the
            // ones its end updates.
            return try state.withLock { state in try Self.write(commit, database, &state) }
        } catch let error as SpoolError {
            throw SpoolError(error.code, "\(path): the commit failed: \(error.message)", cause: error.cause)
        } catch {
            throw SpoolError(.failed, "\(path): the commit failed: \(error)", cause: error)
        }
    }

    private static func write(
        _ commit: SpoolCommit,
        _ database: Database,
        _ state: inout CommitState
    ) throws -> [StoredEvent.Kind: Int] {
        var used = state.usedBytes
        var count = state.eventCount
        var sweep = state.thinningSweep
        var drops: [StoredEvent.Kind: Int] = [:]
        let odometerMillimetres = commit.odometer.map { Int64(($0 * 1000).rounded()) }
        try database.writeTransaction {
            // In slices of at most a tenth of the cap, making room before each: the file never holds much
            // more than the cap, even when one commit brings more than all of it.
            let slice = max(commit.maxBytes / 10, 1)
            var start = commit.events.startIndex
            while start < commit.events.endIndex {
                var end = start
                var bytes: Int64 = 0
                while end < commit.events.endIndex,
                    end == start || bytes + rowBytes(commit.events[end].line.count) <= slice
                {
                    bytes += rowBytes(commit.events[end].line.count)
                    end += 1
                }
                if used + bytes > commit.maxBytes {
                    // Room making may remove the row that carries the odometer: `state` takes it first.
                    try keepOdometerInState(database)
                    var room = SpoolEviction(
                        need: used + bytes - (commit.maxBytes - commit.maxBytes / 10),
                        delivered: commit.delivered,
                        sweep: sweep
                    )
                    try room.make(database)
                    sweep = room.sweep
                    used -= room.freed
                    count -= room.removed
                    drops.merge(room.drops, uniquingKeysWith: +)
                }
                try insert(
                    commit.events[start..<end],
                    odometerMillimetres: end == commit.events.endIndex ? odometerMillimetres : nil,
                    database
                )
                used += bytes
                count += end - start
                start = end
            }
            for (sink, seq) in commit.cursors {
                try database.run(
                    "INSERT INTO cursor (sink, seq) VALUES (?, ?) ON CONFLICT(sink) DO UPDATE SET seq = excluded.seq",
                    sink,
                    Int64(seq)
                )
            }
            try insert(commit.quarantined, database)
            if commit.writesWindow {
                try setState(StateKey.windowStart, Int64(commit.windowStart ?? 0), database)
            }
            if let floor = commit.seqFloor { try setState(StateKey.seqFloor, Int64(floor), database) }
            if let inside = commit.insideRegions {
                try database.run("DELETE FROM inside_region")
                for id in Set(inside) { try database.run("INSERT INTO inside_region (id) VALUES (?)", id) }
                try setState(StateKey.insideSaved, 1, database)
            }
            if let odometerMillimetres, commit.events.isEmpty {
                try setState(StateKey.odometerMillimetres, odometerMillimetres, database)
                try setState(StateKey.odometerSeq, try newestSeq(database), database)
            }
            switch commit.openTrip {
            case .save(let trip): try save(trip, database)
            case .clear: try database.run("DELETE FROM open_trip")
            case nil: break
            }
            for (kind, count) in drops {
                try database.run(
                    "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
                    StateKey.dropPrefix + kind.description,
                    count
                )
            }
        }
        state.usedBytes = used
        state.eventCount = count
        state.thinningSweep = sweep
        return drops
    }

    /// Inserts `events` with one prepared statement, binding each line's bytes where they are; the last one carries
    /// `odometerMillimetres`, when given.
    private static func insert(
        _ events: ArraySlice<StoredEvent>,
        odometerMillimetres: Int64?,
        _ database: Database
    ) throws {
        guard let last = events.last?.seq else { return }
        let statement = try database.statement(
            "INSERT INTO event (seq, kind, time, line, odometer) VALUES (?, ?, ?, ?, ?)"
        )
        defer { statement.clearBindings() }
        for event in events {
            try statement.bind(Int64(event.seq), at: 1)
            try statement.bind(Int64(event.kind.code), at: 2)
            try statement.bind(milliseconds(event.time), at: 3)
            try (event.seq == last ? odometerMillimetres : nil).bind(to: statement, at: 5)
            do {
                try event.line.withUnsafeBytes { bytes in
                    try statement.bind(unsafeBlob: bytes, at: 4)
                    _ = try statement.step()
                }
            } catch {
                throw SpoolError(.failed, "event \(event.seq) not written: \(error)", cause: error)
            }
        }
    }

    /// Copies the odometer of the newest row that carries one to `state`, when it is newer than what `state` holds,
    /// and moves `odometer_seq` to the newest row: no row up to it carries a newer one, so the next look (at the
    /// next room making, or at a start) reads only the rows that came since.
    private static func keepOdometerInState(_ database: Database) throws {
        let saved = try database.integer("SELECT value FROM state WHERE key = ?", StateKey.odometerSeq) ?? 0
        let newest = try newestSeq(database)
        guard newest > saved else { return }
        if let carried = try carriedOdometer(after: saved, database) {
            try setState(StateKey.odometerMillimetres, carried.millimetres, database)
        }
        try setState(StateKey.odometerSeq, newest, database)
    }

    /// The odometer (millimetres) of the newest event row after `seq` that carries one, and that row's `seq`.
    static func carriedOdometer(after seq: Int64, _ database: Database) throws -> (seq: Int64, millimetres: Int64)? {
        try database.first(
            "SELECT seq, odometer FROM event WHERE seq > ? AND odometer IS NOT NULL ORDER BY seq DESC LIMIT 1",
            [seq]
        ) { ($0.int64(at: 0), $0.int64(at: 1)) }
    }

    private static func setState(_ key: String, _ value: Int64, _ database: Database) throws {
        try database.run(
            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            key,
            value
        )
    }
}
