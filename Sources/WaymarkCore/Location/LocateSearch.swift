/// Core Location's one-shot "get my location" (`requestLocation`, the LocateMe rules) as a pure state
/// machine: `waymark locate`.
///
/// The search takes a source's updates one by one (``handle(_:)``) and the passing of time with no input
/// (``tick(at:wallClock:)`` at ``deadline``), and ends with a ``LocateOutcome``:
/// - a fix is considered only when it is valid (a 2D or 3D fix, a finite latitude within ±90° and longitude
///   within ±180°, a horizontal accuracy that is unknown or a finite number of 0 m or more) and fresh and in
///   order (``FixFreshness``, so a wrong system clock makes no fix stale);
/// - the most accurate fix is kept; an unknown accuracy is worse than any known one, and a tie keeps the
///   earlier fix, so that a receiver that reports a constant accuracy can settle;
/// - the search stops as soon as a fix meets the desired accuracy (``DesiredAccuracy/accepts(_:mode:)``;
///   `best` sets no bound, so it is never met early);
/// - "force done": it stops when a new fix is within ``Configuration/settleDistanceMeters`` of the best and
///   the readings have stayed that close for more than ``Configuration/settleTime`` since the best was found
///   (a fix farther away starts that time again);
/// - at the timeout it stops with the best fix, which does not meet the accuracy, or with a `timeout` error;
/// - gpsd unreachable before the first connection fails at once (`gpsd_unavailable`): a one-shot command
///   does not wait out the reconnect backoff. A connection lost later is retried until the timeout;
/// - gpsd reporting no receiver at all fails with `no_device` unless a receiver or a fix appears within
///   ``Configuration/noDeviceGrace``. A named receiver that goes away is waited for until the timeout.
///
/// Every duration is measured on the monotonic clock of the updates; GPS time only orders fixes and the
/// system time only stamps the end. No I/O, no clock reads.
public struct LocateSearch: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// The accuracy at which the search stops early; `.meters(100)` by default.
        public var desiredAccuracy: DesiredAccuracy
        /// How long the search may take.
        public var timeout: Duration
        /// A fix that reaches the agent this much later than the fixes around it is stale; zero checks only
        /// the order.
        public var maxFixAge: Duration
        /// Force done: how close to the best fix new fixes must stay, metres.
        public var settleDistanceMeters: Double
        /// Force done: for how long they must stay that close.
        public var settleTime: Duration
        /// How long gpsd may report no receiver before the search fails with `no_device`.
        public var noDeviceGrace: Duration

        /// - Parameters:
        ///   - desiredAccuracy: 100 m by default: any working receiver with a sky view gets there with its
        ///     first fixes (consumer receivers report 5 to 50 m), and it tells streets and depots apart.
        ///     `best` never stops early: it always takes more than `settleTime`.
        ///   - noDeviceGrace: 2 s by default: gpsd lists its receivers right after the watch starts, and a
        ///     receiver plugged in as the search starts is added by udev well within that.
        public init(
            desiredAccuracy: DesiredAccuracy = .meters(100),
            timeout: Duration = .seconds(60),
            maxFixAge: Duration = .seconds(5),
            settleDistanceMeters: Double = 1,
            settleTime: Duration = .seconds(10),
            noDeviceGrace: Duration = .seconds(2)
        ) {
            self.desiredAccuracy = desiredAccuracy
            self.timeout = timeout
            self.maxFixAge = maxFixAge
            self.settleDistanceMeters = settleDistanceMeters
            self.settleTime = settleTime
            self.noDeviceGrace = noDeviceGrace
        }
    }

    private enum Connection {
        case connecting
        case connected(server: String)
        case lost(server: String, reason: String)
    }

    private struct Best {
        var location: Location
        var arrival: MonotonicInstant
        var received: Timestamp?
        /// Since when new fixes have stayed within the settle distance of this one.
        var settledSince: MonotonicInstant
    }

    public let configuration: Configuration
    /// When the search started, on the monotonic clock of the updates.
    public let start: MonotonicInstant
    /// How the search ended; nil while it runs.
    public private(set) var outcome: LocateOutcome?
    public private(set) var fixesSeen = 0
    public private(set) var fixesIgnored = 0
    private var best: Best?
    private var freshness: FixFreshness
    private var connection = Connection.connecting
    /// When gpsd said it has no receiver, while none has appeared since.
    private var noReceiverSince: MonotonicInstant?
    /// The receiver last reported active, so that gpsd's `DEVICES` and `DEVICE` are told once.
    private var activeReceiver: String?
    private var epochsWithoutFix = 0

    public init(_ configuration: Configuration = .init(), start: MonotonicInstant) {
        self.configuration = configuration
        self.start = start
        freshness = FixFreshness(maxAge: configuration.maxFixAge)
    }

    /// The most accurate fix so far.
    public var bestLocation: Location? { best?.location }

    /// When the search ends if no input arrives before: the timeout, or the end of the grace for a missing
    /// receiver. Nil once it has ended. The caller calls ``tick(at:wallClock:)`` then.
    public var deadline: MonotonicInstant? {
        guard outcome == nil else { return nil }
        let timeout = start + configuration.timeout
        guard let noReceiverSince else { return timeout }
        return min(timeout, noReceiverSince + configuration.noDeviceGrace)
    }

    /// Takes one update from the source; returns what to tell a person. Sets ``outcome`` when the search
    /// ends. Calling it after the end is a programmer error.
    public mutating func handle(_ update: SourceUpdate) -> [LocateProgress] {
        precondition(outcome == nil, "the search has ended")
        let now = update.monotonic
        expire(at: now, wallClock: update.wallClock)
        guard outcome == nil else { return [] }
        switch update.event {
        case .connected(let server, let release):
            connection = .connected(server: server)
            return [.connected(server: server, release: release)]
        case .unavailable(let server, let reason, _):
            switch connection {
            case .connected:
                connection = .lost(server: server, reason: reason)
                noReceiverSince = nil
                activeReceiver = nil
                return [.gpsdLost(server: server, reason: reason)]
            case .lost:
                // A failed retry: the outage was told when it began; the timeout names the latest reason.
                connection = .lost(server: server, reason: reason)
                return []
            case .connecting:
                break
            }
            fail(.gpsdUnavailable, "gpsd at \(server) is unavailable: \(reason)", at: now, wallClock: update.wallClock)
            return []
        case .deviceActive(let path):
            noReceiverSince = nil
            guard path != activeReceiver else { return [] }
            activeReceiver = path
            return [.receiverActive(path: path)]
        case .deviceGone(let path?):
            activeReceiver = nil
            return [.receiverGone(path: path)]
        case .deviceGone(nil):
            activeReceiver = nil
            guard best == nil, noReceiverSince == nil else { return [] }
            noReceiverSince = now
            return [.noReceiver(grace: configuration.noDeviceGrace)]
        case .location(let location):
            noReceiverSince = nil
            return consider(location, update)
        case .noFix:
            noReceiverSince = nil
            epochsWithoutFix += 1
            return epochsWithoutFix == 1 && best == nil ? [.waitingForFix] : []
        case .gpsdError(let message):
            return [.gpsdError(message: message)]
        case .attitude, .sky, .rejected, .dropped:
            return []
        }
    }

    /// Notes that time has passed without input: ends the search when ``deadline`` has passed.
    public mutating func tick(at now: MonotonicInstant, wallClock: Timestamp) {
        precondition(outcome == nil, "the search has ended")
        expire(at: now, wallClock: wallClock)
    }

    /// Ends the search now, as `stopUpdatingLocation` does: with the best fix so far (stop reason
    /// `interrupted`), or with the error `interrupted` when there is none.
    public mutating func stop(at now: MonotonicInstant, wallClock: Timestamp) {
        precondition(outcome == nil, "the search has ended")
        if best != nil {
            finish(.interrupted, at: now, wallClock: wallClock)
        } else {
            fail(.interrupted, "stopped before any usable fix (SIGTERM or SIGINT)", at: now, wallClock: wallClock)
        }
    }

    private mutating func consider(_ location: Location, _ update: SourceUpdate) -> [LocateProgress] {
        let now = update.monotonic
        if let reason = Self.problem(with: location) ?? judgeFreshness(location, update) {
            fixesIgnored += 1
            return [.ignored(location, reason: reason)]
        }
        fixesSeen += 1
        guard let current = best, !Self.isMoreAccurate(location, than: current.location) else {
            best = Best(location: location, arrival: now, received: update.received, settledSince: now)
            let meets = meetsEarly(location)
            if meets { finish(.accuracy, at: now, wallClock: update.wallClock) }
            return [.improved(location, elapsed: now - start, meetsAccuracy: meets)]
        }
        let distance = Geodesic.distance(
            from: Coordinate(latitude: current.location.latitude, longitude: current.location.longitude),
            to: Coordinate(latitude: location.latitude, longitude: location.longitude)
        )
        if distance < configuration.settleDistanceMeters {
            if now - current.settledSince > configuration.settleTime {
                finish(.forceDone, at: now, wallClock: update.wallClock)
            }
        } else {
            best?.settledSince = now
        }
        return []
    }

    private mutating func judgeFreshness(_ location: Location, _ update: SourceUpdate) -> LocateProgress.IgnoreReason? {
        switch freshness.judge(
            location.time,
            arrival: update.monotonic,
            wallClock: update.wallClock,
            wallClockSynchronized: update.wallClockSynchronized
        ) {
        case .fresh, .timeBaseReset: nil
        case .stale(let age): .stale(age: age)
        case .outOfOrder: .outOfOrder
        case .duplicate: .duplicate
        case .ahead(let lead): .timeJump(lead: lead)
        }
    }

    /// Ends the search when the timeout or the grace for a missing receiver has passed.
    private mutating func expire(at now: MonotonicInstant, wallClock: Timestamp) {
        if now >= start + configuration.timeout {
            if best != nil {
                finish(.timeout, at: now, wallClock: wallClock)
            } else {
                let (code, message) = timeoutFailure()
                fail(code, message, at: now, wallClock: wallClock)
            }
        } else if let noReceiverSince, now >= noReceiverSince + configuration.noDeviceGrace {
            var message = "gpsd has no receiver"
            if case .connected(let server) = connection { message = "gpsd at \(server) has no receiver" }
            message += " (none appeared within \(LocateProgress.describe(configuration.noDeviceGrace)))"
            message += "; check that the receiver is plugged in and that gpsd was given its device"
            fail(.noDevice, message, at: now, wallClock: wallClock)
        }
    }

    /// Why the search found nothing before its timeout, in the words an operator needs.
    private func timeoutFailure() -> (ErrorCode, String) {
        let within = "within \(LocateProgress.describe(configuration.timeout))"
        switch connection {
        case .connecting:
            return (.gpsdUnavailable, "gpsd did not answer \(within); check that it runs and its host and port")
        case .lost(let server, let reason):
            return (.gpsdUnavailable, "gpsd at \(server) went away (\(reason)) and did not come back \(within)")
        case .connected:
            var message = "no location \(within)"
            if fixesIgnored > 0 {
                message += ": \(fixesIgnored) fixes were ignored as invalid, stale or out of order"
                message += " (--log-level debug shows why)"
            } else if epochsWithoutFix > 0 {
                message += ": the receiver reported \(epochsWithoutFix) epochs without a fix"
                message += "; check that its antenna sees the sky"
            } else {
                message += ": the receiver reported nothing; check the receiver and gpsd's device"
            }
            return (.timeout, message)
        }
    }

    private mutating func finish(_ reason: LocateOutcome.StopReason, at now: MonotonicInstant, wallClock: Timestamp) {
        guard let best else { preconditionFailure("a search without a fix cannot stop with one") }
        let found = LocateOutcome.Found(
            location: best.location,
            stopReason: reason,
            meetsAccuracy: meetsAccuracy(best.location, stoppedBy: reason),
            received: best.received,
            age: now - best.arrival
        )
        end(.found(found), at: now, wallClock: wallClock)
    }

    private mutating func fail(_ code: ErrorCode, _ message: String, at now: MonotonicInstant, wallClock: Timestamp) {
        end(.failed(ErrorReport(code: code, message: message)), at: now, wallClock: wallClock)
    }

    private mutating func end(_ result: LocateOutcome.Result, at now: MonotonicInstant, wallClock: Timestamp) {
        outcome = LocateOutcome(
            result: result,
            time: wallClock,
            elapsed: now - start,
            fixesSeen: fixesSeen,
            fixesIgnored: fixesIgnored
        )
    }

    /// Whether `location` ends the search at once: only a bound in metres can be met early.
    private func meetsEarly(_ location: Location) -> Bool {
        guard case .meters = configuration.desiredAccuracy else { return false }
        return configuration.desiredAccuracy.accepts(location.horizontalAccuracy, mode: location.mode)
    }

    private func meetsAccuracy(_ location: Location, stoppedBy reason: LocateOutcome.StopReason) -> Bool {
        switch configuration.desiredAccuracy {
        case .meters:
            return meetsEarly(location)
        case .best, .bestForNavigation:
            return reason == .forceDone
                && configuration.desiredAccuracy.accepts(location.horizontalAccuracy, mode: location.mode)
        }
    }

    /// Why a fix is unusable, if it is: Core Location's invalid fixes.
    static func problem(with location: Location) -> LocateProgress.IgnoreReason? {
        guard location.mode.hasFix else { return .noFixMode(location.mode) }
        guard location.latitude.isFinite, location.longitude.isFinite, abs(location.latitude) <= 90,
            abs(location.longitude) <= 180
        else { return .invalidPosition }
        if let accuracy = location.horizontalAccuracy, !(accuracy.isFinite && accuracy >= 0) {
            return .invalidAccuracy(accuracy)
        }
        return nil
    }

    /// Strictly more accurate: a known accuracy beats an unknown one, a tie keeps the earlier fix.
    static func isMoreAccurate(_ location: Location, than other: Location) -> Bool {
        guard let accuracy = location.horizontalAccuracy else { return false }
        guard let otherAccuracy = other.horizontalAccuracy else { return true }
        return accuracy < otherAccuracy
    }
}
