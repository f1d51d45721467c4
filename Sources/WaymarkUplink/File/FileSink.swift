import WaymarkCore
import WaymarkGPX
import WaymarkStore
import WaymarkSystem

/// The fleet-review logs (docs/spool-and-logs.md, "The spool, deferred batches and the fleet-review logs") under
/// the log directory:
/// - `events/YYYY-MM-DD.jsonl`: every event, one JSON line each (with the board's `device`), in the file of
///   its UTC date;
/// - `trips/<start>.gpx`: one GPX 1.1 track per trip, split into segments where the fix was lost, named and
///   sourced (`<src>`) with the `device` of its trip's line;
/// - `trips.jsonl`: the `trip` event of every trip.
///
/// Files older than ``Retention/maxAgeDays`` days, and the oldest files while all of them take more than
/// ``Retention/maxTotalBytes``, are removed; "today" is the date of the newest event written, not the system
/// clock, which a board without a real-time clock may have wrong.
///
/// Every delivery is synced at ``flush()``, before the cursor moves. A crash between that and the commit of the sink's
/// cursor makes the spool hand the same events again, from the cursor: the sink knows the last `seq` of each of its
/// files (their last lines, read when it opens) and skips, file by file, what it holds, so the logs neither lose
/// nor repeat a line, even when a cut kept one file of a delivery and not another. A line torn by a power cut is
/// cut off when the sink opens, and so is everything from a hole of zeros on after the cursor, which a cut that
/// kept a later part of a write and lost an earlier one leaves (``cutAtHole(_:after:)``).
public final class FileSink: Sink {
    public struct Retention: Sendable, Equatable {
        /// Files older than this many days are removed; 0 keeps them.
        public var maxAgeDays: Int
        /// The most the files may take together.
        public var maxTotalBytes: Int64

        public init(maxAgeDays: Int, maxTotalBytes: Int64) {
            self.maxAgeDays = maxAgeDays
            self.maxTotalBytes = maxTotalBytes
        }
    }

    public let name = "file"
    public let directory: String
    let retention: Retention
    let tracks: any TrackSource
    /// The highest `seq` in the event logs.
    public private(set) var lastWritten: UInt64
    /// The last `seq` of each event log (by path), read when the sink opens and moved by each append: an
    /// event is skipped only when its own day's log holds it.
    private var lastSeq: [String: UInt64] = [:]
    /// Zero bytes found in lines the spool counts as delivered, one sentence each: left as they are, for the
    /// caller to report (``cutAtHole(_:after:)``).
    public private(set) var damage: [String] = []
    /// The last `seq` in `trips.jsonl`.
    private var lastTripWritten: UInt64
    /// The UTC day (days since 1970) that the files were last pruned on.
    private var prunedDay: Int64?
    /// The newest UTC day of an event written: "today" for pruning. It only moves forward.
    private var newestDay: Int64?
    /// Deliveries flushed since the sink opened.
    private var deliveries = 0
    /// The event logs written by the delivery being flushed: pruning leaves them alone, whatever their date
    /// (a board that booted without a real-time clock writes its first events under an old date).
    private(set) var writtenNow: Set<String> = []
    private var tripsPath: String { directory + "/trips.jsonl" }
    /// The files written since the last ``flush()``.
    private let appending = AppendingFiles()

    public var localWrites: (bytes: Int64, syncs: Int) { (appending.bytesWritten, appending.syncs) }

    /// Opens the logs in `directory`, creating it, and reads back the last `seq` of each file.
    ///
    /// - Parameters:
    ///   - tracks: where the locations of a trip are read from for its GPX file (the spool).
    ///   - committed: the sink's cursor in the spool (0 when it has none yet), nil when no line of the logs can
    ///     come again (an empty spool): holes of zeros are cut only from the lines after it, which the spool hands
    ///     again.
    public init(
        directory: String,
        retention: Retention,
        tracks: any TrackSource,
        committed: UInt64?
    ) throws(SystemError) {
        self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.retention = retention
        self.tracks = tracks
        try Files.makeDirectory(self.directory + "/events")
        try Files.makeDirectory(self.directory + "/trips")
        var damage: [String] = []
        var lastSeq: [String: UInt64] = [:]
        for name in Files.names(in: self.directory + "/events") where EventLogName(name) != nil {
            let path = self.directory + "/events/" + name
            lastSeq[path] = try Self.recover(path, committed: committed, damage: &damage)
        }
        self.lastSeq = lastSeq
        lastWritten = lastSeq.values.max() ?? 0
        lastTripWritten = try Self.recover(self.directory + "/trips.jsonl", committed: committed, damage: &damage)
        self.damage = damage
    }

    /// The highest `seq` the logs hold: the spool numbers no event again at or below it. Where a delivery starts
    /// again is the spool's cursor, not this: a cut may have kept a later day's log and lost lines of an earlier one.
    public var lastDelivered: UInt64? { lastWritten }

    /// The last `seq` of the file at `path` after cutting off its torn last line and, when it holds lines after
    /// `committed` (or a last line whose `seq` cannot be read), the hole of zeros among them.
    private static func recover(
        _ path: String,
        committed: UInt64?,
        damage: inout [String]
    ) throws(SystemError) -> UInt64 {
        let last = try recoverLastSeq(path)
        guard let committed, last == 0 || last > committed else { return last }
        if let problem = try cutAtHole(path, after: committed) {
            damage.append(problem)
            return max(last, committed)
        }
        return try recoverLastSeq(path)
    }

    /// Writes `trips.jsonl` first, then the day logs: if a power cut keeps only one of them, it is the
    /// summary, whose line then guards it against a second copy when the day lines come again.
    public func flush() throws {
        try appending.sync(first: tripsPath)
        deliveries += 1
        if let today = newestDay, prunedDay != today || deliveries % Self.deliveriesBetweenPrunings == 0 {
            prunedDay = today
            prune(today: today)
        }
        writtenNow.removeAll()
    }

    /// Deliveries between two prunings within a day, so that `max_total_bytes` holds within the day too.
    static let deliveriesBetweenPrunings = 100

    /// Appends each run of events of one UTC day to that day's log, in `seq` order (a clock that jumped
    /// back gives an older day again: its events go to that day's file, after the newer ones), skipping those
    /// that log already holds. A trip's track and summary are written before the run that holds it, unless
    /// `trips.jsonl` holds it; the last `seq` of each file moves with each write, so a failure halfway repeats
    /// nothing that was written.
    public func deliver(_ events: [StoredEvent]) throws {
        var start = events.startIndex
        while start < events.endIndex {
            let day = EventLogName.day(of: events[start].time)
            let path = "\(directory)/events/\(EventLogName.fileName(day: day))"
            let held = lastSeq[path] ?? 0
            var end = start
            var lines: [UInt8] = []
            lines.reserveCapacity((events.endIndex - start) * 240)
            while end < events.endIndex, EventLogName.day(of: events[end].time) == day {
                let event = events[end]
                if event.kind == .trip && event.seq > lastTripWritten { try write(event) }
                if event.seq > held {
                    lines += event.line
                    lines.append(UInt8(ascii: "\n"))
                }
                end += 1
            }
            start = end
            guard !lines.isEmpty else { continue }
            try appending.append(lines, to: path)
            writtenNow.insert(path)
            lastSeq[path] = events[end - 1].seq
            lastWritten = max(lastWritten, events[end - 1].seq)
            newestDay = max(newestDay ?? day, day)
        }
    }

    /// Writes a trip's GPX track, then its line in `trips.jsonl`: a crash between the two writes the track
    /// again, whole, on the next delivery. A summary that cannot be read back gets no track, but its line.
    private func write(_ trip: StoredEvent) throws {
        if let line = try? EventLine(trip.line), let startText = line.string("start_time"),
            let start = Timestamp(iso8601: startText)
        {
            let events = try tracks.track(before: trip.seq, since: start)
            let segments = try TripTrack.segments(of: events, through: trip.time)
            var document: [UInt8] = []
            let device = line.string("device")
            var name = device.map { "\($0) trip \(startText)" } ?? "Trip \(startText)"
            if let route = line.route { name += ": " + route }
            GPXWriter.track(
                name: name,
                description: Self.placesDescription(line),
                source: device,
                segments: segments,
                waypoints: try TripTrack.waypoints(of: events, through: trip.time),
                into: &document
            )
            try AtomicFile.write(document, to: "\(directory)/trips/\(TripTrack.fileName(start: start))")
        }
        try appending.append(trip.line + [UInt8(ascii: "\n")], to: tripsPath)
        lastTripWritten = trip.seq
    }

    /// A trip's places for its track's `<desc>`: `From 220 m W of Kelheim, DE to at Depot North.`; nil without.
    static func placesDescription(_ trip: EventLine) -> String? {
        let start = trip.place("start_place")
        let end = trip.place("end_place")
        guard start != nil || end != nil else { return nil }
        return "From \(start?.description ?? "an unnamed place") to \(end?.description ?? "an unnamed place")."
    }

    /// The last `seq` of the file's last complete line, 0 when it has none; a torn line after it (a power
    /// cut during a write) is cut off.
    static func recoverLastSeq(_ path: String) throws(SystemError) -> UInt64 {
        guard var size = Files.size(path), size > 0 else { return 0 }
        let newline = UInt8(ascii: "\n")
        var window = 4096
        while true {
            let tail = try Files.tail(path, count: window)
            let wholeFile = Int64(tail.count) == size
            guard let end = tail.lastIndex(of: newline) else {
                guard wholeFile else {
                    window *= 4
                    continue
                }
                try Files.truncate(path, to: 0)
                return 0
            }
            if end + 1 < tail.count {
                size -= Int64(tail.count - end - 1)
                try Files.truncate(path, to: size)
            }
            if let previous = tail[..<end].lastIndex(of: newline) { return seq(in: tail[(previous + 1)..<end]) }
            if wholeFile { return seq(in: tail[..<end]) }
            window *= 4
        }
    }

    /// The value of the first `"seq":` member of a line; 0 without one, or when its digits are not followed by
    /// the rest of the member (a line cut short there by a hole of zeros, whose digits may be only the first).
    static func seq(in line: ArraySlice<UInt8>) -> UInt64 {
        let key = Array(#""seq":"#.utf8)
        guard let start = line.indices.first(where: { line[$0...].starts(with: key) }) else { return 0 }
        var value: UInt64 = 0
        for byte in line[(start + key.count)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return byte == 0 ? 0 : value }
            value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
        }
        return 0
    }
}

/// Where a trip's locations come from for its track: the spool.
public protocol TrackSource: AnyObject {
    /// The `location`, `error` and `driving` events before `seq` whose time is `since` or later, in `seq` order.
    func track(before seq: UInt64, since time: Timestamp) throws -> [StoredEvent]
}

extension Spool: TrackSource {}
