import Logging
import WaymarkCore
import WaymarkStore

/// The places of `[places]`: the gazetteer file opened (mapped read-only) with the settings, or why not.
enum PlacesSource {
    /// What names places for `settings`: nil when `[places] enabled = false`; without a gazetteer, naming only
    /// the sites, when the file cannot be used, which is logged once as a warning: the agent goes on, and the
    /// events carry no gazetteer places.
    static func finder(_ settings: PlacesSettings, logger: Logger) -> PlaceFinder? {
        guard settings.enabled else { return nil }
        do {
            let gazetteer = try Gazetteer.open(path: settings.file)
            logger.debug("places: \(gazetteer.count) populated places", metadata: ["file": "\(settings.file)"])
            return PlaceFinder(gazetteer: gazetteer, settings: settings.finder)
        } catch {
            logger.warning(
                "\(error); trips and pauses are named after the sites only, [places] file names no other place"
            )
            return PlaceFinder(gazetteer: nil, settings: settings.finder)
        }
    }
}
