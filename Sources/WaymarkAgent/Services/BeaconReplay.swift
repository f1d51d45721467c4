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

    init(_ reports: [BeaconCapture.Report]) { self.reports = reports }

    /// The time of the capture's first advertisement.
    var firstTime: Timestamp? { reports.first?.time }

    /// Plays the advertisements dated up to `update`'s wall clock, each at the simulated instant its time falls
    /// at after `previous` (never past `update`).
    mutating func play(through update: SourceUpdate, after previous: SourceUpdate?, into core: inout AgentCore) {
        while next < reports.count, reports[next].time <= update.wallClock {
            let report = reports[next]
            next += 1
            var instant = update.monotonic
            if let previous {
                let offset = report.time.duration(since: previous.wallClock)
                instant = min(max(previous.monotonic + offset, previous.monotonic), update.monotonic)
                Agent.advance(&core, from: (previous.monotonic, previous.wallClock), to: instant)
            }
            deliver(report, at: instant, into: &core)
        }
    }

    /// Plays the advertisements left after the drive's last report (all of them when there is no drive), the
    /// simulated clock going on by their times; returns the clock at the last one, or nil when none was left.
    mutating func playRest(after previous: Clock?, into core: inout AgentCore) -> Clock? {
        guard next < reports.count else { return nil }
        var clock: Clock = previous ?? (.zero, reports[next].time)
        while next < reports.count {
            let report = reports[next]
            next += 1
            // A step back in time stands still; a jump of years is one hour, as the drive's clock takes it.
            let step = min(max(report.time.duration(since: clock.wallClock), .zero), .seconds(3600))
            let instant = clock.monotonic + step
            Agent.advance(&core, from: clock, to: instant)
            clock = (instant, max(clock.wallClock, report.time))
            deliver(report, at: instant, into: &core)
        }
        return clock
    }

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
        _ = core.changedInsideRegions()
        core.commit(now: instant, wallClock: report.time)
    }
}
