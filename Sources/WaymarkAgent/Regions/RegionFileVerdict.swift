/// What the agent learnt about `[regions] file`, in the order it learnt it: the core turns these into the
/// `region_file_rejected` alarm (``AgentCore/regionFile(_:now:wallClock:)``).
enum RegionFileVerdict: Sendable, Equatable {
    /// The configuration names this file now (nil: none), at start or after a reload.
    case named(String?)
    /// A version of the file loaded; its regions are monitored.
    case loaded(String)
    /// A version of the file was rejected, with one line per problem.
    case rejected(String, problems: [String])
}
