/// How the vehicle is driven, from the receiver's measured speed and course alone (docs/driving.md): harsh
/// acceleration, braking and cornering from a short window of fixes, with the speeds' error gating what is
/// meaningful, and overspeed against the limit in force.
///
/// It sees every current fix (delivered or not), timed by GPS time, so a replay gives the events a live run gave.
/// An event is emitted when its episode ends (an `overspeed_start` when it is confirmed), dated when it started.
/// Pure: no clock reads.
public struct DrivingMonitor: Sendable {
    public var settings: DrivingSettings
    private var window = MotionWindow()
    private var episodes: [DrivingReport.Kind: HarshEpisode] = [:]
    private var overspeed = OverspeedMonitor()

    public init(settings: DrivingSettings = .init()) { self.settings = settings }

    /// Whether an overspeed is in progress (reported by an `overspeed_start`, not yet ended).
    public var isOverspeeding: Bool { overspeed.isOver }

    /// A current fix, and the lowest `speed_limit` (m/s) of the regions it is inside, if any. Returns the
    /// `driving` events it ends or confirms, in time order.
    public mutating func observe(_ fix: Location, regionLimit: Double?) -> [Event] {
        guard settings.enabled else { return [] }
        // A fix without a measured speed (gpsd's GGA-triggered TPV, before the RMC of the same epoch) says nothing
        // about motion: it neither adds nor ends anything. A real gap shows as a step over `maxStep`.
        guard let speed = fix.speed else { return [] }
        let sample = MotionWindow.Sample(
            time: fix.time,
            speed: speed,
            course: fix.course,
            speedError: min(fix.speedAccuracy ?? settings.speedError, settings.speedError),
            position: fix.coordinate
        )
        var events: [Event] = []
        switch window.add(sample) {
        case .ignored:
            return []
        case .afterGap:
            // Nothing is known across a gap (or a GPS time that went back): what was in progress ends before it.
            events += endAll()
            events += overspeed.gap()
        case .added:
            window.trim(to: settings.window)
            events += judge(sample)
        }
        events += overspeed.observe(
            fix,
            speed: speed,
            limit: regionLimit ?? settings.overspeedLimit,
            settings: settings
        )
        return events.sorted { $0.time < $1.time }
    }

    /// Driving stops being judged (shutdown, the end of a replay): episodes in progress end an epoch after their
    /// last window over, an overspeed at the last fix.
    public mutating func finish() -> [Event] {
        var events = endAll()
        events += overspeed.finish()
        window.reset()
        return events
    }

    /// Applies reloaded settings; episodes in progress are judged by the new thresholds from the next fix.
    public mutating func apply(_ new: DrivingSettings) -> [Event] {
        settings = new
        return new.enabled ? [] : finish()
    }

    /// The windows that are over each threshold at `sample`: episodes start, go on or end.
    private mutating func judge(_ sample: MotionWindow.Sample) -> [Event] {
        let values = window.values(over: settings.window)
        let samples = window.samples
        let step = samples.count >= 2 ? sample.time.duration(since: samples[samples.count - 2].time) : .zero
        var events: [Event] = []
        for kind in [DrivingReport.Kind.harshAcceleration, .harshBraking, .harshCornering] {
            if let values, let value = overValue(kind, values) {
                if episodes[kind] == nil {
                    episodes[kind] = HarshEpisode(kind: kind, value: value, values: values, sample: sample, step: step)
                } else {
                    episodes[kind]?.extend(value: value, sample: sample, step: step)
                }
            } else if let episode = episodes.removeValue(forKey: kind) {
                let end = values == nil ? episode.cutEnd : sample.time
                let event = episode.report(endingAt: end, speedAfter: sample.speed, minDuration: settings.minDuration)
                if let event { events.append(event) }
            }
        }
        return events
    }

    /// The value of `kind` when the window is over its threshold, at a speed that makes it meaningful and with an
    /// error small enough; else nil.
    private func overValue(_ kind: DrivingReport.Kind, _ values: MotionWindow.Values) -> Double? {
        let fraction = DrivingSettings.maxErrorFraction
        switch kind {
        case .harshAcceleration:
            guard values.slowest >= settings.minSpeed, values.error <= fraction * settings.harshAcceleration,
                values.longitudinal > settings.harshAcceleration
            else { return nil }
            return values.longitudinal
        case .harshBraking:
            guard values.slowest >= settings.minSpeed, values.error <= fraction * settings.harshBraking,
                -values.longitudinal > settings.harshBraking
            else { return nil }
            return values.longitudinal
        case .harshCornering:
            guard let lateral = values.lateral, values.slowest >= settings.corneringMinSpeed,
                values.error <= fraction * settings.harshCornering, abs(lateral) > settings.harshCornering
            else { return nil }
            return lateral
        case .overspeedStart, .overspeedEnd:
            return nil
        }
    }

    /// Every harsh episode ends an epoch after its last window over: the data stopped (a gap, the end).
    private mutating func endAll() -> [Event] {
        var events: [Event] = []
        for kind in [DrivingReport.Kind.harshAcceleration, .harshBraking, .harshCornering] {
            guard let episode = episodes.removeValue(forKey: kind) else { continue }
            let event = episode.report(
                endingAt: episode.cutEnd,
                speedAfter: episode.lastSpeed,
                minDuration: settings.minDuration
            )
            if let event { events.append(event) }
        }
        return events
    }
}
