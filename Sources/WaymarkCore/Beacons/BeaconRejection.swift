/// Why an advertisement gave no ``BeaconSighting`` (``IBeaconFrame/parse(_:rssi:)``). The reasons are stable
/// snake_case strings: they are metric labels.
public struct BeaconRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable label, such as `not_ibeacon`.
    public let reason: String

    /// Later parts may add reasons of their own; keep them snake_case and stable.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }

    /// Apple manufacturer data that is not an iBeacon: the first two bytes are not `02 15` (AirDrop, Find My,
    /// Continuity and the other Apple frames), or there are fewer than two bytes.
    public static let notIBeacon = BeaconRejection("not_ibeacon")
    /// An iBeacon header (`02 15`) on a frame that is not 23 bytes long.
    public static let badLength = BeaconRejection("bad_length")
    /// A measured power outside ``IBeaconFrame/validMeasuredPower``: 0 or positive (an uncalibrated beacon), or
    /// too faint to be heard at 1 m.
    public static let badMeasuredPower = BeaconRejection("bad_measured_power")
    /// An RSSI outside ``IBeaconFrame/validRSSI``, such as 127, which HCI sends for "not available".
    public static let badRSSI = BeaconRejection("bad_rssi")
}
