/// Where a network sink new to the spool starts (`[sinks.traccar]`, `[sinks.owntracks]`, `[sinks.http]`
/// `start`), once: when the spool holds no cursor for it yet, the first time it is enabled. From then on it
/// goes on from its cursor, whatever this says.
public enum SinkStart: String, CaseIterable, Sendable, Equatable {
    /// From the oldest event the spool still holds: a sink added to a board with history gets all of it, and
    /// nothing is lost (the default).
    case oldest
    /// From the first event after those the spool held when the sink was first enabled: the history stays on
    /// the board (in the spool, the logs and `waymark spool export`) and the server gets what comes next.
    case now
}
