/// What an OSM PBF file's header block says.
public struct PBFHeader: Hashable, Sendable {
    public var requiredFeatures: [String] = []
    public var writingProgram: String?
    /// `osmosis_replication_timestamp`: the time the extract's data is as of, seconds since 1970.
    public var replicationTimestamp: Int64?
}
