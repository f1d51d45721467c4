import WaymarkCore

/// Numbers events as they are emitted: `seq` starts at 1 per process and grows by one per event.
/// (The spool makes it durable across restarts in a later issue.)
public struct EventSequencer: Sendable {
    public private(set) var lastSeq: UInt64

    public init(lastSeq: UInt64 = 0) { self.lastSeq = lastSeq }

    public mutating func number(_ events: inout [Event]) {
        for index in events.indices {
            lastSeq += 1
            events[index].seq = lastSeq
        }
    }
}
