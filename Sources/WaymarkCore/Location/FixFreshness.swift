/// Decides whether a fix is fresh, without trusting the system clock (docs/architecture.md, "Clocks").
///
/// A fix's *delay* is its arrival on the monotonic clock minus its GPS time. Live fixes arrive with the
/// same small delay whatever either clock says, so the smallest delay seen is the reference, and a fix is
/// stale when its delay exceeds the reference by more than the maximum age. A wrong system clock (a Pi
/// boots years off), a receiver that reports GPS time in another epoch (gpsd 3.22 moves pre-2017 dates 1024
/// weeks forward) or a capture fed faster than real time change no fix's verdict.
///
/// The system clock is used once, for the first fix, and only when it is synchronized and agrees with the
/// fix's GPS time within ``plausibleClockDisagreement``: then that fix's delay is measured against it, so
/// a fix that gpsd held before the agent started is recognised as stale. A disagreement beyond that is a
/// time-base fault of one clock, not an old fix.
///
/// A fix whose GPS time is not later than the newest fresh fix is out of order (or a duplicate). A fix
/// whose GPS time runs ahead of its arrival by more than ``plausibleClockDisagreement`` (a receiver that
/// glitches a date forward) is held as a time jump, so that it cannot make every later fix look out of
/// order. If every fix is rejected as stale, out of order or ahead for ``resetWindow`` and at least three
/// fixes, the GPS time base itself has moved (a week-number fix, a receiver reset): the judge starts again
/// from the current fix and says so, so that no rule can silently drop every fix.
public struct FixFreshness: Sendable {
    public enum Verdict: Equatable, Sendable {
        case fresh
        /// Arrived `age` later than the fixes around it.
        case stale(age: Duration)
        /// Older than the newest fresh fix.
        case outOfOrder
        /// GPS time ran ahead of the arrival clock by `lead` since the fixes before: a date glitch.
        case ahead(lead: Duration)
        /// The same GPS time as the newest fresh fix.
        case duplicate
        /// Fresh, after fixes were rejected for ``FixFreshness/resetWindow``: the judge started again here.
        /// `jump` is how far the fix's delay moved from the reference (positive: GPS time went back,
        /// negative: it went forward).
        case timeBaseReset(jump: Duration)
    }

    /// The largest disagreement between a synchronized system clock and GPS time that still counts as a
    /// fix's age, and the largest lead of GPS time over the arrival clock that is not a time jump.
    public static let plausibleClockDisagreement = Duration.seconds(3600)
    /// How long every fix must be rejected, on the arrival clock, before the judge starts again. Short, so
    /// that a real change of the time base costs seconds of fixes, and long enough that a burst of held fixes
    /// (which arrives within a fraction of a second) never resets it.
    public static let resetWindow = Duration.seconds(10)
    /// The reference delay may creep up by this fraction of elapsed time (200 ppm): the monotonic clock of
    /// a board without NTP drifts against GPS time.
    static let creepDivisor: Int64 = 5000
    static let resetMinimumFixes = 3

    /// The age above which a fix is stale; zero checks only the order.
    public var maxAge: Duration {
        didSet { maxAgeNanoseconds = maxAge.nanoseconds }
    }
    private var maxAgeNanoseconds: Int64
    /// The smallest delay seen (arrival minus GPS time), nanoseconds, with its creep.
    private var reference: Int64 = 0
    private var referenceArrival: Int64 = 0
    private var hasReference = false
    /// The GPS time of the newest fresh fix.
    private var newest: Int64 = .min
    /// The arrival of the first fix of the current run of rejections, and how many fixes it has.
    private var rejectedSince: Int64 = 0
    private var rejectedRun = 0

    public init(maxAge: Duration) {
        self.maxAge = maxAge
        maxAgeNanoseconds = maxAge.nanoseconds
    }

    /// How far arrivals trail GPS time (the reference delay): GPS time at a monotonic instant is that instant
    /// minus this. Nil until the first fix of the stream.
    public var arrivalDelay: Duration? { hasReference ? .nanoseconds(reference) : nil }

    /// Forgets the stream: a new connection to gpsd (another server, a restarted replay) may bring another
    /// delay and another time base. The first fix of the new stream is judged as the first fix ever.
    public mutating func startNewStream() {
        hasReference = false
        newest = .min
        rejectedRun = 0
    }

    /// Judges one fix.
    /// - Parameters:
    ///   - time: The fix's GPS time.
    ///   - arrival: When the fix reached the agent, on the monotonic clock.
    ///   - wallClock: The system time at arrival.
    ///   - wallClockSynchronized: Whether the system clock is known to be synchronized (NTP, PTP, GPS).
    public mutating func judge(
        _ time: Timestamp,
        arrival: MonotonicInstant,
        wallClock: Timestamp,
        wallClockSynchronized: Bool
    ) -> Verdict {
        let fixTime = time.nanosecondsSince1970
        let arrived = arrival.nanoseconds
        let delay = Self.difference(arrived, fixTime)
        if !hasReference {
            hasReference = true
            reference = delay
            referenceArrival = arrived
            let age = Self.difference(wallClock.nanosecondsSince1970, fixTime)
            if wallClockSynchronized, age.magnitude <= Self.plausibleClockDisagreement.nanoseconds.magnitude {
                reference = Self.difference(delay, age)
            }
        } else if arrived > referenceArrival {
            reference = Self.sum(reference, (arrived - referenceArrival) / Self.creepDivisor)
            referenceArrival = arrived
        }

        let verdict: Verdict
        if fixTime == newest {
            return .duplicate
        } else if fixTime < newest {
            verdict = .outOfOrder
        } else if Self.difference(reference, delay) > Self.plausibleClockDisagreement.nanoseconds {
            verdict = .ahead(lead: .nanoseconds(Self.difference(reference, delay)))
        } else if maxAgeNanoseconds > 0, Self.difference(delay, reference) > maxAgeNanoseconds {
            verdict = .stale(age: .nanoseconds(Self.difference(delay, reference)))
        } else {
            accept(fixTime, delay: delay)
            return .fresh
        }
        if rejectedRun == 0 { rejectedSince = arrived }
        rejectedRun += 1
        guard rejectedRun >= Self.resetMinimumFixes,
            Self.difference(arrived, rejectedSince) >= Self.resetWindow.nanoseconds
        else { return verdict }
        let jump = Duration.nanoseconds(Self.difference(delay, reference))
        reference = delay
        newest = .min
        accept(fixTime, delay: delay)
        return .timeBaseReset(jump: jump)
    }

    private mutating func accept(_ fixTime: Int64, delay: Int64) {
        newest = fixTime
        reference = min(reference, delay)
        rejectedRun = 0
    }

    private static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (a < b ? .min : .max) : result
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : result
    }
}
