/// A region of the region file and its state as the agent last saved it in `state_dir/regions.state`.
public struct SavedRegionState: Hashable, Sendable {
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Inside at the last save.
        case inside
        /// Not inside at the last save: outside, or not determined yet (a region added since, or one the agent
        /// has had no qualifying fix for), as the agent saves only the regions it is inside.
        case outside
        /// There are no saved states: the agent has not saved any yet.
        case unknown
        /// The agent does not monitor the region: `reason` is its `region_monitoring_failure`.
        case notMonitored(reason: String)

        /// `inside`, `outside`, `unknown`, or `not monitored: REASON`.
        public var description: String {
            switch self {
            case .inside: "inside"
            case .outside: "outside"
            case .unknown: "unknown"
            case .notMonitored(let reason): "not monitored: \(reason)"
            }
        }
    }

    public var id: String
    public var state: State

    public init(id: String, state: State) {
        self.id = id
        self.state = state
    }
}
