/// What a beacon source (BlueZ live, or a Bluetooth capture in replay) tells the core.
public enum BeaconSourceEvent: Hashable, Sendable {
    /// An iBeacon advertisement heard.
    case sighting(BeaconSighting)
    /// Apple manufacturer data that is no usable iBeacon frame: counted, never an event.
    case rejected(BeaconRejection)
    /// Discovery started or stopped (the paused agent's duty cycle, an adapter switched off): while it is off,
    /// silence does not count toward `[beacons] exit_after`.
    case scanning(Bool)
    /// The source cannot scan: no bus, no bluetoothd, no adapter, an adapter off, discovery refused. Said once
    /// per cause; the source retries with backoff.
    case failure(BeaconSourceFailure)
}

/// Why a beacon source cannot scan.
public struct BeaconSourceFailure: Hashable, Sendable {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

extension ErrorCode {
    /// The D-Bus system bus (or `[beacons] bus`) cannot be reached, libsystemd cannot be loaded, or bluetoothd
    /// is not on the bus.
    public static let bluetoothUnavailable = ErrorCode("bluetooth_unavailable")
    /// BlueZ has no adapter, or not the one `[beacons] adapter` names.
    public static let bluetoothNoAdapter = ErrorCode("bluetooth_no_adapter")
    /// The adapter is powered off (rfkill, `bluetoothctl power off`).
    public static let bluetoothAdapterOff = ErrorCode("bluetooth_adapter_off")
    /// BlueZ refused `SetDiscoveryFilter` or `StartDiscovery`.
    public static let bluetoothDiscoveryFailed = ErrorCode("bluetooth_discovery_failed")
}

/// A ``BeaconSourceEvent`` with the clocks of its arrival.
public struct BeaconUpdate: Hashable, Sendable {
    public var event: BeaconSourceEvent
    /// Monotonic time of arrival (simulated in replay).
    public var monotonic: MonotonicInstant
    /// Best knowledge of wall-clock time at arrival: the system time live, the capture's time in replay.
    public var wallClock: Timestamp

    public init(_ event: BeaconSourceEvent, monotonic: MonotonicInstant, wallClock: Timestamp) {
        self.event = event
        self.monotonic = monotonic
        self.wallClock = wallClock
    }
}
