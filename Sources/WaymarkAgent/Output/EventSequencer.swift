import WaymarkCore

/// Numbers events as they are emitted: `seq` grows by one per event, from where the spool left off (or
/// from 1 without a spool).
public struct EventSequencer: Sendable {
    public private(set) var lastSeq: UInt64

    public init(lastSeq: UInt64 = 0) { self.lastSeq = lastSeq }

    public mutating func number(_ events: inout [Event]) {
        for index in events.indices { number(&events[index]) }
    }

    public mutating func number(_ event: inout Event) {
        lastSeq += 1
        event.seq = lastSeq
    }
}
