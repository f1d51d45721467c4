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

extension BeaconSourceEvent {
    /// What an advertisement with Apple manufacturer data tells the core, live and in replay alike: a sighting,
    /// or why not (``IBeaconFrame/parse(_:rssi:)``; no RSSI is ``BeaconRejection/badRSSI``).
    ///
    /// - Parameter appleData: the bytes after Apple's company id 0x004C.
    public static func advertisement(appleData: some Collection<UInt8>, rssi: Int?) -> BeaconSourceEvent {
        guard let rssi else { return .rejected(.badRSSI) }
        switch IBeaconFrame.parse(appleData, rssi: rssi) {
        case .success(let sighting): return .sighting(sighting)
        case .failure(let rejection): return .rejected(rejection)
        }
    }

    /// Whether it is a state of the source (scanning, a failure), which must reach the core even when
    /// advertisements are dropped.
    public var isState: Bool {
        switch self {
        case .sighting, .rejected: false
        case .scanning, .failure: true
        }
    }
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
    /// BlueZ refused `RegisterAdvertisement`: the adapter's advertising instances are all taken
    /// (`org.bluez.Error.NotPermitted`), the advertisement is invalid (`org.bluez.Error.Failed`), or the bus's
    /// policy does not let the agent call BlueZ (`org.freedesktop.DBus.Error.AccessDenied`).
    public static let bluetoothAdvertisingRefused = ErrorCode("bluetooth_advertising_refused")
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
