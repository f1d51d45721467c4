import Glibc
import WaymarkCore
import WaymarkStore
import WaymarkSystem

extension RegionFileEditor {
    /// Each region of the file, geographic or beacon, in its order, with the state the agent last saved in its spool
    /// (`stateDirectory/spool.sqlite`), or before the spool kept them in `stateDirectory/regions.state`: every
    /// region ``SavedRegionState/State/unknown`` when neither holds any; a region the agent does not monitor
    /// (over a limit) ``SavedRegionState/State/notMonitored(reason:)``.
    ///
    /// - Throws: ``RegionEditError``: the errors of ``regions()``; ``RegionEditError/Code/malformedFile`` for a
    ///   state file that is not one the agent writes; ``RegionEditError/Code/cannotRead``.
    public func savedStates(stateDirectory: String) throws(RegionEditError) -> [SavedRegionState] {
        let regions = try entries() ?? []
        var inside = try spoolStates(stateDirectory)
        if inside == nil { inside = try legacyStates(RegionStateFile(stateDirectory: stateDirectory)) }
        let refusals = Dictionary(
            RegionSource.monitoring(regions, within: limits).refusals.map { ($0.id, $0.reason) },
            uniquingKeysWith: { first, _ in first }
        )
        return regions.map { region in
            let state: SavedRegionState.State =
                if let reason = refusals[region.id] {
                    .notMonitored(reason: reason)
                } else if let inside {
                    inside.contains(region.id) ? .inside : .outside
                } else {
                    .unknown
                }
            return SavedRegionState(id: region.id, state: state)
        }
    }

    /// The regions the spool saved as inside; nil when there is no spool or it saved none.
    private func spoolStates(_ stateDirectory: String) throws(RegionEditError) -> Set<String>? {
        let path = (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + Spool.fileName
        guard Files.size(path) != nil else { return nil }
        do {
            return try Spool(path: path, readOnly: true).load().insideRegions
        } catch {
            throw RegionEditError(code: .cannotRead, message: "\(path): \(error.message)")
        }
    }

    /// The regions `regions.state` of an earlier version saved as inside; nil when there is no such file.
    private func legacyStates(_ file: RegionStateFile) throws(RegionEditError) -> Set<String>? {
        var status = stat()
        if stat(file.path, &status) != 0, errno == ENOENT { return nil }
        do {
            _ = try Files.contents(file.path)
        } catch {
            throw RegionEditError(code: .cannotRead, message: "\(file.path): \(error.withoutPath)")
        }
        guard let saved = file.load() else {
            throw RegionEditError(
                code: .malformedFile,
                message: "\(file.path): not a region state file of the agent: its first line is not "
                    + "\"\(RegionStateFile.header)\""
            )
        }
        return saved
    }
}
