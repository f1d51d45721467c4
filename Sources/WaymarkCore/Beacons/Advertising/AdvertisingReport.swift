/// A `beacon_advertising` event: the board started or stopped advertising itself as an iBeacon.
public struct AdvertisingReport: Hashable, Sendable {
    public enum Change: String, Hashable, Sendable {
        case started
        case stopped
    }

    public var change: Change
    /// Why: an ``AdvertisingPolicy/Reason``'s raw value, or what BlueZ did (`adapter_off`, `bluetoothd_gone`,
    /// `adapter_removed`, `released`, `connection_lost`).
    public var reason: String
    /// The beacon advertised.
    public var beacon: BeaconID
    /// The region entered, for `inside_region`.
    public var regionID: String?

    public init(change: Change, reason: String, beacon: BeaconID, regionID: String? = nil) {
        self.change = change
        self.reason = reason
        self.beacon = beacon
        self.regionID = regionID
    }
}
