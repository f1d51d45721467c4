import WaymarkCore

/// What ``BlueZAdvertiser`` advertises, and where.
public struct AdvertiserConfiguration: Hashable, Sendable {
    /// A D-Bus address (`unix:path=…`); nil is the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else its socket).
    public var busAddress: String?
    /// The adapter's name (`hci0`); nil takes the first powered one.
    public var adapter: String?
    /// The beacon the board is, and its measured power (the RSSI at 1 m, dBm, in
    /// ``IBeaconFrame/validMeasuredPower``: checked by the `init`).
    public var beacon: BeaconID
    public private(set) var measuredPower: Int
    /// The advertising interval asked of BlueZ (`MinInterval` = `MaxInterval`); nil leaves it to BlueZ and the
    /// controller. BlueZ accepts 20 ms to 10,485 s.
    public var interval: Duration?
    /// The wait after a failure, doubling up to `retryMax`.
    public var retryMin: Duration
    public var retryMax: Duration
    /// The object path of the advertisement the agent exports.
    public var objectPath: String

    /// - Throws: ``Invalid`` when `measuredPower` is outside ``IBeaconFrame/validMeasuredPower``: no reader could
    ///   range such a beacon.
    public init(
        busAddress: String? = nil,
        adapter: String? = nil,
        beacon: BeaconID,
        measuredPower: Int = -59,
        interval: Duration? = .milliseconds(100),
        retryMin: Duration = .seconds(1),
        retryMax: Duration = .seconds(60),
        objectPath: String = "/org/waymark/beacon0"
    ) throws(Invalid) {
        guard IBeaconFrame.validMeasuredPower.contains(measuredPower) else {
            throw Invalid(
                description: "measured power \(measuredPower) dBm: an iBeacon's is -100...-1 dBm (the RSSI at 1 m)"
            )
        }
        self.busAddress = busAddress
        self.adapter = adapter
        self.beacon = beacon
        self.measuredPower = measuredPower
        self.interval = interval
        self.retryMin = retryMin
        self.retryMax = retryMax
        self.objectPath = objectPath
    }

    /// The interval in whole milliseconds, as BlueZ takes it.
    var intervalMilliseconds: UInt32? {
        interval.map { UInt32(clamping: $0.nanoseconds / 1_000_000) }
    }
}

extension AdvertiserConfiguration {
    /// A value an ``AdvertiserConfiguration`` cannot take, named with what is allowed.
    public struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }
}
