/// One iBeacon advertisement heard: who, how loud it says it is at 1 m, and how loud it was.
public struct BeaconSighting: Hashable, Sendable {
    public var beacon: BeaconID
    /// The frame's measured power: the RSSI at 1 m, in dBm (negative).
    public var measuredPower: Int
    /// The received signal strength, in dBm.
    public var rssi: Int

    public init(beacon: BeaconID, measuredPower: Int, rssi: Int) {
        self.beacon = beacon
        self.measuredPower = measuredPower
        self.rssi = rssi
    }
}
