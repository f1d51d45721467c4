/// Turns gpsd's TPV reports into one result per epoch.
///
/// gpsd sends several TPVs per epoch (one per NMEA sentence that completes a cycle), each with the same
/// `time`; the GGA-triggered ones carry a speed gpsd computed itself. The assembler keeps the most complete
/// report of the epoch (highest mode, then most fields, then the latest) and, when that one lacks speed and
/// course, takes them from the latest report of the epoch that carried a receiver-measured track.
///
/// An epoch ends when a report with another time arrives, or when no report has arrived for
/// ``Configuration/quietPeriod``. A TPV with a position but no time is held until a timed report follows
/// within the quiet period, and then joins that report's epoch.
///
/// Pure: no clock reads; `now` is monotonic time.
public struct EpochAssembler: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// How long after its last report an epoch is considered complete.
        public var quietPeriod: Duration

        public init(quietPeriod: Duration = .milliseconds(500)) { self.quietPeriod = quietPeriod }
    }

    public enum Output: Hashable, Sendable {
        case location(Location)
        case noFix(mode: FixMode, time: Timestamp?)
        case rejected(Rejection)

        public var sourceEvent: SourceEvent {
            switch self {
            case .location(let location): .location(location)
            case .noFix(let mode, let time): .noFix(mode: mode, time: time)
            case .rejected(let rejection): .rejected(rejection)
            }
        }
    }

    private struct Epoch {
        var time: Timestamp
        var best: FixReport
        var latestMotion: FixReport?
        var reports: Int
    }

    public let configuration: Configuration
    private var epoch: Epoch?
    private var heldUntimed: FixReport?
    private var lastArrival: MonotonicInstant?
    /// The time of the epoch emitted last: a report of it arriving late is a duplicate, not a new epoch.
    private var lastClosedTime: Timestamp?

    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// When ``flush(at:)`` next has something to emit, if anything is pending.
    public var deadline: MonotonicInstant? {
        guard epoch != nil || heldUntimed != nil, let lastArrival else { return nil }
        return lastArrival + configuration.quietPeriod
    }

    /// Adds one TPV report received at `now`; returns what completed.
    public mutating func add(_ report: FixReport, at now: MonotonicInstant) -> [Output] {
        var outputs = flush(at: now)
        lastArrival = now
        guard let time = report.time else {
            if report.hasPosition {
                if heldUntimed != nil { outputs.append(.rejected(.noTime)) }
                heldUntimed = report
            } else if epoch == nil {
                outputs.append(.noFix(mode: report.mode, time: nil))
            }
            return outputs
        }
        if let current = epoch, current.time != time {
            outputs.append(contentsOf: close(current))
            epoch = nil
        }
        if epoch == nil, time == lastClosedTime {
            outputs.append(.rejected(.duplicateEpoch))
            return outputs
        }
        if var held = heldUntimed {
            held.time = time
            merge(held, time: time)
            heldUntimed = nil
        }
        merge(report, time: time)
        return outputs
    }

    /// Emits the pending epoch if its quiet period has passed by `now`.
    public mutating func flush(at now: MonotonicInstant) -> [Output] {
        guard let deadline, now >= deadline else { return [] }
        return finish()
    }

    /// Emits whatever is pending: the end of the input, or a lost connection.
    public mutating func finish() -> [Output] {
        var outputs: [Output] = []
        if let current = epoch { outputs.append(contentsOf: close(current)) }
        if heldUntimed != nil { outputs.append(.rejected(.noTime)) }
        epoch = nil
        heldUntimed = nil
        return outputs
    }

    private mutating func merge(_ report: FixReport, time: Timestamp) {
        let motion = report.course != nil ? report : nil
        guard var current = epoch else {
            epoch = Epoch(time: time, best: report, latestMotion: motion, reports: 1)
            return
        }
        current.reports += 1
        if Self.isAtLeastAsComplete(report, as: current.best) { current.best = report }
        if let motion { current.latestMotion = motion }
        epoch = current
    }

    private static func isAtLeastAsComplete(_ candidate: FixReport, as incumbent: FixReport) -> Bool {
        let candidateRank = (candidate.hasPosition ? 1 : 0, candidate.mode.rawValue, candidate.fieldCount)
        let incumbentRank = (incumbent.hasPosition ? 1 : 0, incumbent.mode.rawValue, incumbent.fieldCount)
        return candidateRank >= incumbentRank
    }

    private mutating func close(_ epoch: Epoch) -> [Output] {
        lastClosedTime = epoch.time
        var outputs = [Output](repeating: .rejected(.duplicateEpoch), count: epoch.reports - 1)
        var best = epoch.best
        guard best.hasPosition, let latitude = best.latitude, let longitude = best.longitude else {
            outputs.append(.noFix(mode: best.mode, time: epoch.time))
            return outputs
        }
        guard (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude) else {
            outputs.append(.rejected(.invalidPosition))
            return outputs
        }
        if best.course == nil, let motion = epoch.latestMotion {
            best.speed = motion.speed
            best.speedError = motion.speedError
            best.course = motion.course
            best.courseError = motion.courseError
        }
        outputs.append(.location(Location(epoch.time, latitude: latitude, longitude: longitude, report: best)))
        return outputs
    }
}

extension Location {
    /// The location of a TPV report: horizontal accuracy from `eph`, else from `epx` and `epy`.
    init(_ time: Timestamp, latitude: Double, longitude: Double, report: FixReport) {
        var horizontal = report.horizontalError
        if horizontal == nil, let x = report.longitudeError, let y = report.latitudeError {
            horizontal = (x * x + y * y).squareRoot()
        }
        self.init(
            time: time,
            latitude: latitude,
            longitude: longitude,
            altitudeHAE: report.altitudeHAE,
            altitudeMSL: report.altitudeMSL,
            horizontalAccuracy: horizontal,
            verticalAccuracy: report.verticalError,
            speed: report.speed,
            speedAccuracy: report.speedError,
            course: report.course,
            courseAccuracy: report.courseError,
            mode: report.mode
        )
    }
}
