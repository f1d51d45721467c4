/// A trip in progress: where it started, how far it went, its stops and speeds.
struct TripRecorder: Sendable {
    let start: Timestamp
    let startPosition: Coordinate
    /// The last fix the trip travelled to.
    private(set) var last: Location
    private(set) var distance = 0.0
    private var idleTime = Duration.zero
    private var stops = 0
    private var speeds = SpeedStatistics()
    private var regionsEntered: [String] = []

    init(start: Timestamp, at position: Coordinate, last: Location) {
        self.start = start
        startPosition = position
        self.last = last
    }

    /// Counts the way from the last fix to `fix`; returns its metres.
    @discardableResult
    mutating func travel(to fix: Location) -> Double {
        let step = Geodesic.distance(from: last.coordinate, to: fix.coordinate)
        distance += step
        last = fix
        speeds.add(fix.speed)
        return step
    }

    /// A stop inside the trip, from its first stationary fix to the departure; `speeds` are its fixes'.
    mutating func stopped(for duration: Duration, speeds stopSpeeds: SpeedStatistics) {
        speeds.merge(stopSpeeds)
        guard duration >= ActivitySettings.shortestStop else { return }
        stops += 1
        idleTime += duration
    }

    mutating func entered(region id: String) {
        if !regionsEntered.contains(id) { regionsEntered.append(id) }
    }

    /// - Parameter odometer: the odometer's metres at the end.
    func summary(
        end: Timestamp,
        at position: Coordinate,
        reason: TripSummary.EndReason,
        odometer: Double? = nil
    ) -> TripSummary {
        TripSummary(
            start: start,
            startPosition: startPosition,
            end: max(end, start),
            endPosition: position,
            endReason: reason,
            distance: distance,
            idleTime: idleTime,
            stops: stops,
            maxSpeed: speeds.maximum,
            averageSpeed: speeds.mean,
            regionsEntered: regionsEntered,
            odometer: odometer
        )
    }
}

/// The receiver-measured speeds of a run of fixes.
struct SpeedStatistics: Hashable, Sendable {
    private(set) var maximum: Double?
    private var sum = 0.0
    private var count = 0

    var mean: Double? { count > 0 ? sum / Double(count) : nil }

    mutating func add(_ speed: Double?) {
        guard let speed else { return }
        maximum = max(maximum ?? speed, speed)
        sum += speed
        count += 1
    }

    mutating func merge(_ other: SpeedStatistics) {
        if let otherMaximum = other.maximum { maximum = max(maximum ?? otherMaximum, otherMaximum) }
        sum += other.sum
        count += other.count
    }
}
