import WaymarkCore
import WaymarkGPSD
import WaymarkStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RegionFileEditor {
    /// Each region of the file, in its order, with the state the agent last saved in its spool
    /// (`stateDirectory/spool.sqlite`), or before the spool kept them in `stateDirectory/regions.state`: every
    /// region ``SavedRegionState/State/unknown`` when neither holds any; a region the agent does not monitor
    /// (over a limit) ``SavedRegionState/State/notMonitored(reason:)``.
    ///
    /// - Throws: ``RegionEditError``: the errors of ``regions()``; ``RegionEditError/Code/malformedFile`` for a
    ///   state file that is not one the agent writes; ``RegionEditError/Code/cannotRead``.
    public func savedStates(stateDirectory: String) throws(RegionEditError) -> [SavedRegionState] {
        let regions = try regions() ?? []
        let file = RegionStateFile(stateDirectory: stateDirectory)
        var inside: Set<String>?
        var status = stat()
        let spoolPath = (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + Spool.fileName
        if stat(spoolPath, &status) == 0 {
            do {
                inside = try Spool(path: spoolPath, readOnly: true).load().insideRegions
            } catch {
                throw RegionEditError(code: .cannotRead, message: "\(spoolPath): \(error.message)")
            }
        }
        if inside != nil {
            // The spool's states are the newest.
        } else if stat(file.path, &status) != 0, errno == ENOENT {
            inside = nil
        } else {
            do {
                _ = try FileBytes.read(file.path)
            } catch {
                throw RegionEditError(code: .cannotRead, message: "\(file.path): \(error.message)")
            }
            guard let saved = file.load() else {
                throw RegionEditError(
                    code: .malformedFile,
                    message: "\(file.path): not a region state file of the agent: its first line is not "
                        + "\"\(RegionStateFile.header)\""
                )
            }
            inside = saved
        }
        let refusals = Dictionary(
            RegionIndex.monitoring(regions, within: limits).refusals.map { ($0.id, $0.reason) },
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
}
