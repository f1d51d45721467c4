/// How a ``LocateSearch`` ended: with a location, or with an error, and what it took.
public struct LocateOutcome: Hashable, Sendable {
    public enum Result: Hashable, Sendable {
        case found(Found)
        /// No location: `timeout`, `gpsd_unavailable`, `no_device` or `interrupted`.
        case failed(ErrorReport)
    }

    /// Why a search that found a location stopped.
    public enum StopReason: String, Hashable, Sendable, CaseIterable {
        /// A fix met the desired accuracy.
        case accuracy
        /// Core Location's "force done": the readings stopped improving (new fixes within
        /// ``LocateSearch/Configuration/settleDistanceMeters`` of the best for longer than
        /// ``LocateSearch/Configuration/settleTime``).
        case forceDone = "force_done"
        /// The timeout passed; the location is the best fix found.
        case timeout
        /// The search was stopped (SIGTERM or SIGINT) before it ended; the location is the best fix found.
        case interrupted
    }

    /// The location a search ended with.
    public struct Found: Hashable, Sendable {
        /// The most accurate fix of the search.
        public var location: Location
        public var stopReason: StopReason
        /// Whether the fix meets the desired accuracy. With `best`, which sets no bound, it does when the
        /// readings stopped improving (force done), and not when the search timed out while they still moved.
        public var meetsAccuracy: Bool
        /// The system time the agent received the fix (live sources).
        public var received: Timestamp?
        /// Monotonic time from the fix's arrival to the end of the search.
        public var age: Duration

        public init(
            location: Location,
            stopReason: StopReason,
            meetsAccuracy: Bool,
            received: Timestamp? = nil,
            age: Duration = .zero
        ) {
            self.location = location
            self.stopReason = stopReason
            self.meetsAccuracy = meetsAccuracy
            self.received = received
            self.age = age
        }
    }

    public var result: Result
    /// The system time when the search ended: the `time` of a failure's `error` object.
    public var time: Timestamp
    /// Monotonic time from the start of the search to its end.
    public var elapsed: Duration
    /// Valid, fresh fixes the search considered.
    public var fixesSeen: Int
    /// Fixes ignored as invalid, stale, out of order or repeated.
    public var fixesIgnored: Int

    public init(result: Result, time: Timestamp, elapsed: Duration, fixesSeen: Int = 0, fixesIgnored: Int = 0) {
        self.result = result
        self.time = time
        self.elapsed = elapsed
        self.fixesSeen = fixesSeen
        self.fixesIgnored = fixesIgnored
    }

    /// The location found, if any.
    public var found: Found? {
        guard case .found(let found) = result else { return nil }
        return found
    }

    /// The error, if the search found no location.
    public var failure: ErrorReport? {
        guard case .failed(let report) = result else { return nil }
        return report
    }
}

extension LocateOutcome: CustomStringConvertible {
    /// One line for a person: what was found, or what went wrong.
    public var description: String {
        let after = "after \(LocateProgress.describe(elapsed))"
        switch result {
        case .found(let found):
            let place = LocateProgress.describe(found.location)
            switch found.stopReason {
            case .accuracy:
                return "\(place): meets the desired accuracy \(after)"
            case .forceDone:
                let verdict = found.meetsAccuracy ? "the best available" : "does not meet the desired accuracy"
                return "\(place): readings stopped improving \(after) (force done); \(verdict)"
            case .timeout:
                return "\(place): the best fix when the search timed out \(after); does not meet the desired accuracy"
            case .interrupted:
                let verdict = found.meetsAccuracy ? "meets" : "does not meet"
                return "\(place): the best fix when the search was stopped \(after); \(verdict) the desired accuracy"
            }
        case .failed(let report):
            return "\(report.code): \(report.message)"
        }
    }
}

extension ErrorCode {
    /// `waymark locate` found no usable fix before its timeout (Core Location's `requestLocation` failing
    /// with `CLError.locationUnknown`).
    public static let timeout = ErrorCode("timeout")

    /// `waymark locate` was stopped (SIGTERM or SIGINT) before it had a usable fix.
    public static let interrupted = ErrorCode("interrupted")
}
