import WaymarkCore

/// When the spool commits what waits: `commit_interval` after the first thing that waits, at once for an urgent
/// event (a pause, a region crossing, a trip), and a little early when the input at hand can carry the commit.
///
/// Pure: no clock reads, every step takes `now`. ``Storage`` keeps one and asks it at each input and alarm.
struct CommitSchedule: Sendable {
    /// `[spool] commit_interval`.
    let interval: Duration
    /// When the oldest thing that waits (an event, a sink's cursor) came; nil when nothing waits.
    private(set) var pendingSince: MonotonicInstant?
    /// Whether an event that commits at once waits.
    private var urgent = false
    /// When the last event came, and the longest time between two events since the last commit: their cadence,
    /// for ``early``.
    private var lastAppended: MonotonicInstant?
    private var longestGap = Duration.zero

    init(interval: Duration) { self.interval = interval }

    /// An event waits from `now`; an `urgent` one is due at once.
    mutating func eventWaits(at now: MonotonicInstant, urgent: Bool) {
        if pendingSince == nil { pendingSince = now }
        if let lastAppended { longestGap = max(longestGap, now - lastAppended) }
        lastAppended = now
        if urgent { self.urgent = true }
    }

    /// Something other than an event waits from `now` (a sink's cursor, its quarantined events).
    mutating func somethingWaits(at now: MonotonicInstant) {
        if pendingSince == nil { pendingSince = now }
    }

    /// Everything that waited was taken for a commit (written or, failed, left to the retry).
    mutating func taken() {
        pendingSince = nil
        urgent = false
        longestGap = .zero
    }

    /// When what waits must be committed: at once for an urgent event, else `commit_interval` after the first.
    var deadline: MonotonicInstant? { pendingSince.map { urgent ? $0 : $0 + interval } }

    /// Whether the commit of what waits goes with the input at `now`: its deadline has passed, or comes within
    /// ``early``.
    func isDue(at now: MonotonicInstant) -> Bool { deadline.map { $0 <= now + early } ?? false }

    /// How early a commit may go with the input at hand (a batch from gpsd, a `SKY`, beacons), rather than wake
    /// the loop for it alone at its deadline.
    ///
    /// - Events at least four times per `commit_interval` since the last commit (a receiver at 5 or 10 Hz): the
    ///   longest gap between them. No event is due before the deadline, so that commit would hold no more.
    /// - Slower events (fixes at 1 Hz against a commit a second, a filter that holds most of them back):
    ///   ``earlyCommit``, whatever else wakes the loop in between.
    ///
    /// Never more than a quarter of `commit_interval`, so commits keep their rhythm, and the deadline itself is
    /// never passed: a power cut loses at most `commit_interval`.
    var early: Duration {
        let quarter = interval / 4
        return min(quarter, longestGap <= quarter ? max(Self.earlyCommit, longestGap) : Self.earlyCommit)
    }

    /// The least of ``early``: at a receiver's pace of 1 Hz the fixes and the commits' deadlines keep one rhythm
    /// (the first event of a commit came with a fix), so a fix comes within milliseconds of each deadline,
    /// before it or after; one just before it carries the commit. A wider window there would let an input that
    /// comes well before the fix (a `SKY`, a beacon batch) commit without it, and commits would hold fewer fixes.
    static let earlyCommit = Duration.milliseconds(50)
}
