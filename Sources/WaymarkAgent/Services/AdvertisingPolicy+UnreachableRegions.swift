import WaymarkCore

extension AdvertisingPolicy.Rule {
    /// What keeps `[beacons.advertise] regions` from ever being entered with the regions `loaded`: an id the file
    /// does not have, a beacon region while `[beacons]` does not scan (only scanning enters one). One sentence each.
    func unreachableRegions(in loaded: RegionSource.Loaded, scanning: Bool) -> [String] {
        guard case .insideRegions(let ids) = self else { return [] }
        let beaconIDs = Set(loaded.beaconRegions.map(\.id))
        return ids.sorted().compactMap { id in
            if beaconIDs.contains(id) {
                return scanning
                    ? nil
                    : "[beacons.advertise] regions: \"\(id)\" is a beacon region and [beacons] enabled = false: "
                        + "it is entered only while scanning, so it never starts advertising"
            }
            guard loaded.index.slot(of: id) == nil else { return nil }
            return "[beacons.advertise] regions: the region file has no region \"\(id)\": it never starts advertising"
        }
    }
}
