import WaymarkCore

/// Where and how ``BlueZScanner`` scans.
public struct BlueZConfiguration: Hashable, Sendable {
    /// A D-Bus address (`unix:path=…`); nil is the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else its socket).
    public var busAddress: String?
    /// The adapter's name (`hci0`); nil takes the first powered one.
    public var adapter: String?
    /// The wait after a failure, doubling up to `retryMax`.
    public var retryMin: Duration
    public var retryMax: Duration
    /// While the agent is paused, discovery runs for `scanWindow` at the start of every `scanInterval`; a
    /// window as long as the interval scans all the time.
    public var scanInterval: Duration
    public var scanWindow: Duration
    /// Advertisements are handed on together at most this often: 2,000 a second wake the agent's core four
    /// times a second, not 2,000.
    public var batchInterval: Duration
    /// Advertisements come one D-Bus message each: after a wake-up the source lets them gather this long before
    /// it reads again (a stop or a change of the duty cycle still wakes it at once), so that 2,000 a second cost
    /// at most 50 wake-ups, not 2,000.
    public var gatherInterval: Duration

    public init(
        busAddress: String? = nil,
        adapter: String? = nil,
        retryMin: Duration = .seconds(1),
        retryMax: Duration = .seconds(60),
        scanInterval: Duration = .seconds(60),
        scanWindow: Duration = .seconds(10),
        batchInterval: Duration = .milliseconds(250),
        gatherInterval: Duration = .milliseconds(20)
    ) {
        self.busAddress = busAddress
        self.adapter = adapter
        self.retryMin = retryMin
        self.retryMax = retryMax
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.batchInterval = batchInterval
        self.gatherInterval = gatherInterval
    }

    /// Whether the duty cycle scans at `now`, for a cycle that began at `start`; and when that changes.
    func dutyCycle(
        startedAt start: MonotonicInstant,
        now: MonotonicInstant
    ) -> (scanning: Bool, until: MonotonicInstant?) {
        guard scanWindow < scanInterval else { return (true, nil) }
        let interval = max(scanInterval.nanoseconds, 1)
        let elapsed = max((now - start).nanoseconds, 0)
        let cycleStart = start + .nanoseconds(elapsed - elapsed % interval)
        let windowEnd = cycleStart + scanWindow
        return now < windowEnd ? (true, windowEnd) : (false, cycleStart + scanInterval)
    }
}
