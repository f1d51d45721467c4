/// What each look at the region file calls for: pure, so that it is tested table-driven.
///
/// A changed file is loaded once it has **settled**: the same version seen at two looks in a row (a poll
/// interval apart). An operator who writes the file in place (`cat > regions.geojson`, an editor that
/// truncates and writes, `scp`) leaves it empty or half written for a moment; loading it then would reject a
/// file that is about to be good, raise `region_file_rejected` and log problems that are not there. The first
/// look (at the start, or when a file is named) loads at once: the regions are monitored from the first fix.
struct RegionFileWatch: Equatable, Sendable {
    enum Action: Equatable, Sendable {
        case nothing
        case load
        /// There is no file: a warning, once until it changes (there may be no regions yet).
        case missing(reason: String)
        /// The file exists but cannot be read: an error and an alarm, once until the reason changes.
        case unreadable(reason: String)
    }

    /// The version last loaded (good or not): it is not loaded again until it changes.
    private var loaded: RegionSource.Version?
    /// A version seen changed at the last look, loaded if it is still the same at the next.
    private var settling: RegionSource.Version?
    /// Why the file could not be read, as last said.
    private var unreadableReported: String?
    private var looked = false

    mutating func look(_ current: Result<RegionSource.Version, RegionSource.Unreadable>) -> Action {
        defer { looked = true }
        switch current {
        case .failure(let unreadable):
            loaded = nil
            settling = nil
            guard unreadableReported != unreadable.reason else { return .nothing }
            unreadableReported = unreadable.reason
            return unreadable.missing ? .missing(reason: unreadable.reason) : .unreadable(reason: unreadable.reason)
        case .success(let version):
            unreadableReported = nil
            guard version != loaded else {
                settling = nil
                return .nothing
            }
            guard !looked || settling == version else {
                settling = version
                return .nothing
            }
            loaded = version
            settling = nil
            return .load
        }
    }
}
