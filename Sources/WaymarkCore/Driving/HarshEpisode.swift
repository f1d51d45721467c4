/// One run of windows over a harsh threshold, from its first window over to the first window that is not.
struct HarshEpisode: Sendable {
    let kind: DrivingReport.Kind
    /// GPS time of the first window over the threshold: the event's `time`.
    let start: Timestamp
    /// The speed at the start of that window.
    let speedBefore: Double
    private(set) var peak: Double
    /// The signed value at the peak (its sign gives a corner's direction).
    private(set) var peakSigned: Double
    private(set) var peakPosition: Coordinate
    private(set) var lastOver: Timestamp
    private(set) var lastSpeed: Double
    /// The epoch before ``lastOver``: when the data stops, the episode ends when the next fix was due.
    private(set) var lastStep: Duration

    init(
        kind: DrivingReport.Kind,
        value: Double,
        values: MotionWindow.Values,
        sample: MotionWindow.Sample,
        step: Duration
    ) {
        self.kind = kind
        start = sample.time
        speedBefore = values.startSpeed
        peak = abs(value)
        peakSigned = value
        peakPosition = sample.position
        lastOver = sample.time
        lastSpeed = sample.speed
        lastStep = step
    }

    mutating func extend(value: Double, sample: MotionWindow.Sample, step: Duration) {
        if abs(value) > peak {
            peak = abs(value)
            peakSigned = value
            peakPosition = sample.position
        }
        lastOver = sample.time
        lastSpeed = sample.speed
        lastStep = step
    }

    /// When the data stopped (a gap, the end): one epoch after its last window over, when the window that would
    /// have ended it was due, as a fix not over would have ended it.
    var cutEnd: Timestamp { lastOver.advanced(by: lastStep) }

    /// The episode ended at `end` (the first window not over, or ``cutEnd`` when the data stopped):
    /// its event when it lasted at least `minDuration`.
    func report(endingAt end: Timestamp, speedAfter: Double, minDuration: Duration) -> Event? {
        let duration = end.duration(since: start)
        guard duration >= minDuration else { return nil }
        let report = DrivingReport(
            kind: kind,
            peak: peak,
            duration: duration,
            speed: speedBefore,
            speedAfter: speedAfter,
            direction: kind == .harshCornering ? (peakSigned > 0 ? "right" : "left") : nil,
            position: peakPosition
        )
        return Event(time: start, kind: .driving(report))
    }
}
