/// Which beacons a beacon region matches (Core Location's `CLBeaconIdentityCondition`): a proximity UUID, and
/// optionally a major value, and with it optionally a minor value.
public struct BeaconConstraint: Hashable, Sendable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16?
    /// Only with a `major`.
    public var minor: UInt16?

    /// - Precondition: `minor` is nil unless `major` is given.
    public init(uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil) {
        precondition(minor == nil || major != nil, "a beacon constraint's minor needs a major")
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Reads `UUID`, `UUID:MAJOR` or `UUID:MAJOR:MINOR` (each value 0 to 65535); nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let uuid = BeaconUUID(parts[0]) else { return nil }
        let values = parts.dropFirst().map { UInt16($0) }
        guard !values.contains(nil) else { return nil }
        self.init(uuid: uuid, major: values.first ?? nil, minor: values.dropFirst().first ?? nil)
    }

    public func matches(_ beacon: BeaconID) -> Bool {
        beacon.uuid == uuid && (major.map { $0 == beacon.major } ?? true)
            && (minor.map { $0 == beacon.minor } ?? true)
    }

    public var description: String {
        [uuid.description, major.map(String.init), minor.map(String.init)].compactMap { $0 }.joined(separator: ":")
    }
}
