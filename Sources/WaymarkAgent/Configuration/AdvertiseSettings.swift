import WaymarkBluetooth
import WaymarkCore

/// `[beacons.advertise]`: the board as an iBeacon (docs/beacon-advertising.md), through BlueZ's
/// `LEAdvertisingManager1` on the adapter and bus of `[beacons]`.
public struct AdvertiseSettings: Sendable, Equatable {
    /// When the board advertises (`when`).
    public enum When: String, Sendable, CaseIterable {
        case always
        case moving
        case paused
        case regions
    }

    /// Off by default: an advertising board can be followed by anyone who listens.
    public var enabled = false
    /// The fleet's proximity UUID (`uuid`), the depot group (`major`) and the vehicle's number (`minor`).
    public var uuid: BeaconUUID?
    public var major = 0
    public var minor = 0
    /// The RSSI at 1 m, dBm, carried in the frame (`measured_power`; -59 is a common phone-class calibration).
    public var measuredPower = -59
    /// The interval asked of BlueZ (`interval`): 20 ms to 10.24 s; "0s" leaves it to BlueZ.
    public var interval: Duration = .milliseconds(100)
    public var when = When.always
    /// The region ids of `when = "regions"` (`regions`).
    public var regions: [String] = []

    public init() {}

    /// The beacon the board is.
    public var beacon: BeaconID? {
        uuid.map { BeaconID(uuid: $0, major: UInt16(major), minor: UInt16(minor)) }
    }

    /// The policy's rule.
    public var rule: AdvertisingPolicy.Rule {
        switch when {
        case .always: .always
        case .moving: .whileMoving
        case .paused: .whilePaused
        case .regions: .insideRegions(Set(regions))
        }
    }

    /// What the live advertiser needs, on the bus and adapter of `[beacons]`; nil unless enabled.
    func advertiser(_ beacons: BeaconsSettings) -> AdvertiserConfiguration? {
        guard enabled, let beacon else { return nil }
        do {
            return try AdvertiserConfiguration(
                busAddress: beacons.bus,
                adapter: beacons.adapter,
                beacon: beacon,
                measuredPower: measuredPower,
                interval: interval == .zero ? nil : interval
            )
        } catch {
            // read(from:) keeps measured_power in the same range: a programmer's error, not data.
            preconditionFailure("[beacons.advertise] passed its own checks and still: \(error)")
        }
    }

    /// Reads `[beacons.advertise]`.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read(
            "uuid",
            .string("a proximity UUID such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") { BeaconUUID($0) != nil },
            into: &uuidText
        )
        section.read("major", .integer(in: 0...65535), into: &major)
        section.read("minor", .integer(in: 0...65535), into: &minor)
        section.read("measured_power", .integer(in: IBeaconFrame.validMeasuredPower), into: &measuredPower)
        section.read("interval", Self.intervalRule, into: &interval)
        section.read("when", .oneOf, into: &when)
        section.read("regions", .regionIDs, into: &regions)
        if enabled && uuid == nil {
            section.requirePresent("uuid", because: "an advertising board needs its fleet's UUID", at: "enabled")
        }
        if enabled && when == .regions && regions.isEmpty {
            section.requirePresent("regions", because: "when = \"regions\" needs the regions' ids", at: "when")
        }
    }

    /// `uuid` as the file writes it; setting it reads it.
    private var uuidText: String {
        get { uuid?.description ?? "" }
        set { uuid = BeaconUUID(newValue) }
    }

    /// BlueZ takes 20 ms to 10,485 s (in units of 0.625 ms); beyond 10.24 s a reader would wait too long.
    private static let intervalRule = ValueRule<Duration> { value in
        guard case .string(let text) = value, let duration = Duration(configText: text) else {
            return .rejected("must be a duration such as \"100ms\"")
        }
        guard duration == .zero || (.milliseconds(20)...(.milliseconds(10_240))).contains(duration) else {
            return .rejected(
                "must be from \"20ms\" to \"10240ms\" (a legacy advertisement's longest), or \"0s\" to leave it to BlueZ"
            )
        }
        return .accepted(duration)
    }
}

extension ValueRule where Value == [String] {
    /// An array of region ids, each once.
    static var regionIDs: ValueRule {
        ValueRule { value in
            guard case .array(let elements) = value else {
                return .rejected("must be an array of region ids, not \(value.kind.noun)")
            }
            var ids: [String] = []
            for element in elements {
                guard case .string(let id) = element, !id.isEmpty else {
                    return .rejected("must hold only region ids (non-empty strings)")
                }
                if !ids.contains(id) { ids.append(id) }
            }
            return .accepted(ids)
        }
    }
}
