import WaymarkCore

extension LocationService {
    /// What the other services tell the loop: queued in the order told, and applied in that order at its next
    /// step, before what runs that step. A region file's verdict thus follows the regions it loaded. Of the
    /// settings, the region set, the deferral and the status request only the newest counts: one told while an
    /// earlier one still waits replaces it (two reloads in one step apply the last; the queue holds at most one
    /// region set).
    enum Input: Sendable {
        /// Reloaded `[location]`, `[heading]`, `[regions]` and the other settings.
        case configuration(Configuration)
        /// A region file loaded or reloaded: monitored from then on.
        case regions(RegionSource.Loaded)
        /// What became of the region file (named, loaded, rejected): the `region_file_rejected` alarm.
        case regionFile(RegionFileVerdict)
        /// `waymark defer off` (false) or `on` (true).
        case deferral(enabled: Bool)
        /// `waymark status` asks for a fresh status file.
        case statusRequest
        /// A fleet command was run or refused.
        case command(CommandReport)

        /// The kinds of input of which only the newest counts.
        enum Replaceable { case configuration, regions, deferral, statusRequest }

        /// What a newer input of the same kind replaces while it waits; nil for a verdict, each of which counts.
        var replaceable: Replaceable? {
            switch self {
            case .configuration: .configuration
            case .regions: .regions
            case .deferral: .deferral
            case .statusRequest: .statusRequest
            case .regionFile, .command: nil
            }
        }
    }
}
