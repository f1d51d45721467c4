import Logging
import WaymarkCore
import WaymarkStore

/// The places of `[places]`: the gazetteer and the address file opened (mapped read-only) with the settings,
/// or why not.
enum PlacesSource {
    /// What names places for `settings`: nil when `[places] enabled = false`; without a gazetteer, naming only
    /// the sites, when the file cannot be used, which is logged once as a warning: the agent goes on, and the
    /// events carry no gazetteer places.
    static func finder(_ settings: PlacesSettings, logger: Logger) -> PlaceFinder? {
        guard settings.enabled else { return nil }
        var gazetteer: Gazetteer?
        do {
            gazetteer = try Gazetteer.open(path: settings.file)
            logger.debug("places: \(gazetteer?.count ?? 0) populated places", metadata: ["file": "\(settings.file)"])
        } catch {
            logger.warning(
                "\(error); trips and pauses are named after the sites only, [places] file names no other place"
            )
        }
        return PlaceFinder(
            gazetteer: gazetteer,
            addresses: addresses(settings, logger: logger),
            settings: settings.finder
        )
    }

    /// The address file of `[places] addresses`, or nil: the default one not installed, or one that cannot be
    /// used, which is logged once as a warning: the agent goes on without addresses.
    static func addresses(_ settings: PlacesSettings, logger: Logger) -> AddressIndex? {
        guard let path = settings.addressFileToOpen else { return nil }
        do {
            // Bounds only: a whole check reads the file (Germany's, about 2 GB) before READY; check-config and
            // `places check` read it all.
            let addresses = try AddressIndex.open(path: path, verifying: .bounds)
            let counts = "\(addresses.addressCount) addresses, \(addresses.streetPieceCount) street pieces"
            logger.info(
                "places: \(counts) from \(addresses.sourceName) of \(addresses.sourceDate)",
                metadata: ["file": "\(path)"]
            )
            return addresses
        } catch {
            logger.warning("\(error); running without street addresses: places are named by site and town only")
            return nil
        }
    }
}
