import WaymarkBluetooth
import WaymarkCore
import WaymarkGPSD

/// Plays a Bluetooth capture's advertisements into a replay, on the drive's simulated clock: each at the instant
/// its time falls between two reports of the drive, so that a drive with tags gives the events a live run would
/// have given.
struct BeaconReplay {
    /// The simulated clock at a point of the replay.
    typealias Clock = (monotonic: MonotonicInstant, wallClock: Timestamp)

    private let reports: [BeaconCapture.Report]
    private var next = 0
    private var scanning = false
    /// The simulated instant of the advertisement played last.
    private var lastInstant: MonotonicInstant?
    /// Advertisements dated before the drive's first report or after its last: a capture of another time, or a
    /// recording host whose clock was off.
    private(set) var outsideDrive = 0

    init(_ reports: [BeaconCapture.Report]) { self.reports = reports }

    /// The time of the capture's first advertisement.
    var firstTime: Timestamp? { reports.first?.time }

    /// Plays the advertisements up to what `update` says happened (a fix's own GPS time: the replay hands a fix on
    /// when the next epoch begins; else the update's wall clock), each at the simulated instant that the core's
    /// event clock dates with its time (never before the one played last, never past `update`). Those before the
    /// drive's first report all go at that report.
    mutating func play(through update: SourceUpdate, after previous: SourceUpdate?, into core: inout AgentCore) {
        let bound: Timestamp
        if case .location(let location) = update.event { bound = location.time } else { bound = update.wallClock }
        while next < reports.count, reports[next].time <= bound {
            let report = reports[next]
            next += 1
            guard let previous else {
                if report.time.advanced(by: Self.tolerance) < bound { outsideDrive += 1 }
                deliver(report, at: update.monotonic, into: &core)
                continue
            }
            let floor = max(previous.monotonic, lastInstant ?? previous.monotonic)
            let estimate =
                core.pipeline.gpsClockDelay.map {
                    MonotonicInstant(nanoseconds: report.time.nanosecondsSince1970) + $0
                } ?? previous.monotonic + report.time.duration(since: previous.wallClock)
            let instant = min(max(estimate, floor), update.monotonic)
            Agent.advance(&core, from: (previous.monotonic, previous.wallClock), to: instant)
            deliver(report, at: instant, into: &core)
        }
    }

    /// Plays the advertisements left after the drive's last report (all of them when there is no drive), the
    /// drive's simulated clock going on by their times (``ReplayClock``, from the event clock's time at the last
    /// report); returns the clock at the last one, or nil when none was left.
    mutating func playRest(after previous: Clock?, into core: inout AgentCore) -> Clock? {
        guard next < reports.count else { return nil }
        var clock =
            previous.map {
                ReplayClock(
                    continuingAt: max($0.monotonic, lastInstant ?? $0.monotonic),
                    wallClock: core.eventTime(at: $0.monotonic, wallClock: $0.wallClock)
                )
            } ?? ReplayClock(continuingAt: .zero, wallClock: reports[next].time)
        if previous != nil {
            let end = clock.wallClock.advanced(by: Self.tolerance)
            outsideDrive += reports[next...].filter { $0.time > end }.count
        }
        while next < reports.count {
            let report = reports[next]
            next += 1
            let before = (clock.monotonic, clock.wallClock)
            clock.observe(report.time)
            Agent.advance(&core, from: before, to: clock.monotonic)
            deliver(report, at: clock.monotonic, into: &core)
        }
        return (clock.monotonic, clock.wallClock)
    }

    /// How far outside the drive's times an advertisement may be without a warning: tags heard just before the
    /// first fix or after the last one.
    private static let tolerance = Duration.seconds(60)

    private mutating func deliver(
        _ report: BeaconCapture.Report,
        at instant: MonotonicInstant,
        into core: inout AgentCore
    ) {
        // The capture was recorded while scanning: from its first advertisement on, silence counts.
        if !scanning {
            scanning = true
            core.process(BeaconUpdate(.scanning(true), monotonic: instant, wallClock: report.time))
        }
        core.process(BeaconUpdate(report.event, monotonic: instant, wallClock: report.time))
        lastInstant = instant
        _ = core.changedInsideRegions()
        core.commit(now: instant, wallClock: report.time)
    }
}
