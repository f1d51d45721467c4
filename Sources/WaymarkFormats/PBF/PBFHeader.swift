/// What an OSM PBF file's header block says.
public struct PBFHeader: Hashable, Sendable {
    public var requiredFeatures: [String] = []
    public var writingProgram: String?
    /// `osmosis_replication_timestamp`: the time the extract's data is as of, seconds since 1970.
    public var replicationTimestamp: Int64?

    /// The times, in seconds since 1970, a timestamp of OpenStreetMap data can hold: from 1970 to the end of
    /// 9999, the range an ISO 8601 date of four digits can name; anything else is a damaged file.
    static let plausibleTimes: ClosedRange<Int64> = 0...253_402_300_799
}
