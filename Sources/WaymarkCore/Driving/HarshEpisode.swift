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

    init(kind: DrivingReport.Kind, value: Double, values: MotionWindow.Values, sample: MotionWindow.Sample) {
        self.kind = kind
        start = sample.time
        speedBefore = values.startSpeed
        peak = abs(value)
        peakSigned = value
        peakPosition = sample.position
        lastOver = sample.time
        lastSpeed = sample.speed
    }

    mutating func extend(value: Double, sample: MotionWindow.Sample) {
        if abs(value) > peak {
            peak = abs(value)
            peakSigned = value
            peakPosition = sample.position
        }
        lastOver = sample.time
        lastSpeed = sample.speed
    }

    /// The episode ended at `end` (the first window not over, or its last window over when the data stopped):
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
