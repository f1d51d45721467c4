/// The beacon regions a sighting can match, found by its UUID and major instead of by trying every region.
///
/// Regions are given by position (the monitor's watches, sorted by region id); ``candidates(for:)`` returns the
/// positions of those whose UUID and, when they name one, major are the beacon's, in ascending order, so that the
/// monitor's outputs keep their region-id order. The caller still checks the minor.
struct BeaconRegionIndex: Sendable {
    private struct MajorKey: Hashable, Sendable {
        var uuid: BeaconUUID
        var major: UInt16
    }

    /// Regions of a UUID alone.
    private var byUUID: [BeaconUUID: [Int]] = [:]
    /// Regions of a UUID and a major (with or without a minor).
    private var byMajor: [MajorKey: [Int]] = [:]

    init(_ constraints: [BeaconConstraint]) {
        for (position, constraint) in constraints.enumerated() {
            if let major = constraint.major {
                byMajor[MajorKey(uuid: constraint.uuid, major: major), default: []].append(position)
            } else {
                byUUID[constraint.uuid, default: []].append(position)
            }
        }
    }

    /// The positions of the regions that may match `beacon`, ascending.
    func candidates(for beacon: BeaconID) -> [Int] {
        let wide = byUUID[beacon.uuid] ?? []
        let narrow = byMajor[MajorKey(uuid: beacon.uuid, major: beacon.major)] ?? []
        if wide.isEmpty { return narrow }
        if narrow.isEmpty { return wide }
        // Both lists are ascending: merge them.
        var merged: [Int] = []
        merged.reserveCapacity(wide.count + narrow.count)
        var (first, second) = (wide[...], narrow[...])
        while let a = first.first, let b = second.first {
            if a < b {
                merged.append(a)
                first = first.dropFirst()
            } else {
                merged.append(b)
                second = second.dropFirst()
            }
        }
        return merged + first + second
    }
}
