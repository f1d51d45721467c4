/// `[fleet]`: the board's retained status on its broker, for `waymark fleet status` (docs/fleet.md). It uses
/// `[sinks.owntracks]`' broker, topic and credentials, over the same MQTT connection as the sink, whether the sink
/// sends locations or not.
public struct FleetSettings: Sendable, Equatable {
    public var enabled = false
    /// The least time between two status messages (`status_interval`): a change waits for it.
    public var statusInterval: Duration = .seconds(60)
    /// How long a change of the figures that move all the time (the last fix, the backlogs, the fix's quality)
    /// waits at most before a status carries it (`status_refresh`); 0 ("off"): only with another change.
    public var statusRefresh: Duration = .seconds(900)
    /// The commands the board runs from `TOPIC/cmd` (`accept`, OwnTracks' action names): none by default.
    public var accept: [String] = []

    /// ``accept`` as actions.
    var acceptedActions: Set<FleetCommand.Action> { Set(accept.compactMap(FleetCommand.Action.init(rawValue:))) }

    public init() {}

    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("status_interval", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &statusInterval)
        section.read("status_refresh", .duration(atMost: .seconds(7 * 86_400)), into: &statusRefresh)
        section.read("accept", .actions, into: &accept)
        if statusRefresh > .zero {
            section.requireOrder("status_interval", statusInterval, notAbove: "status_refresh", statusRefresh) {
                $0.configText
            }
        }
    }
}

extension ValueRule where Value == [String] {
    /// `[fleet] accept`: an array of command names (``FleetCommand/Action``), each once.
    static var actions: ValueRule {
        ValueRule { value in
            let known = FleetCommand.Action.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            guard case .array(let elements) = value else {
                return .rejected("must be an array of command names (\(known)), not \(value.kind.noun)")
            }
            var names: [String] = []
            for element in elements {
                guard case .string(let name) = element, FleetCommand.Action(rawValue: name) != nil else {
                    return .rejected("must hold only command names: \(known)")
                }
                if !names.contains(name) { names.append(name) }
            }
            return .accepted(names)
        }
    }
}
