import WaymarkStore

/// Where committed events go after the spool: the file logs now, HTTP or MQTT later. A sink delivers in
/// `seq` order, at least once: the spool keeps its cursor, the last `seq` it confirmed, and hands it every
/// released event after it (``SinkDriver``).
public protocol Sink: AnyObject {
    /// The name of the sink's cursor in the spool: `file`, `http`.
    var name: String { get }
    /// The last `seq` the sink holds durably by its own records, or nil when it keeps none. After a crash
    /// between a delivery and the commit of its cursor the spool hands the same events again; a sink that
    /// knows what it holds skips them (a network sink instead leaves that to the receiver, which removes
    /// duplicates by `device` and `seq`).
    var lastDelivered: UInt64? { get }
    /// Delivers `events`, in `seq` order; they may wait in the sink until ``flush()``.
    func deliver(_ events: [StoredEvent]) throws
    /// Makes everything delivered durable where the sink puts them; only then does the cursor move on.
    func flush() throws
    /// Bytes the sink wrote to local files, and the fsyncs it made, since it was made (the metrics).
    var localWrites: (bytes: Int64, syncs: Int) { get }
}

extension Sink {
    /// A sink that writes no local file.
    public var localWrites: (bytes: Int64, syncs: Int) { (0, 0) }
}

/// Hands a sink the spool's released events after its cursor, in batches, and moves the cursor on only when
/// a batch was delivered.
public final class SinkDriver {
    public let sink: any Sink
    /// The last `seq` the sink confirmed.
    public private(set) var cursor: UInt64
    /// Whether ``cursor`` moved since ``takeCursorChange()``: the spool then saves it with its next commit.
    private var cursorMoved = false
    /// Events at most in one delivery.
    public static let batchLimit = 4096

    public init(sink: any Sink, cursor: UInt64) {
        self.sink = sink
        self.cursor = cursor
    }

    /// Delivers the events of `spool` after the cursor up to `released`. Throws the sink's failure; the
    /// cursor then stays after the last batch delivered, so the next call goes on from there.
    public func deliver(from spool: Spool, through released: UInt64) throws {
        var delivered = cursor
        while delivered < released {
            let batch = try spool.events(after: delivered, through: released, limit: Self.batchLimit)
            guard let last = batch.last, batch.count == Self.batchLimit else {
                // The rest of the events up to `released` (any that were dropped for room, or never
                // committed, have nothing to hand over).
                if !batch.isEmpty { try sink.deliver(batch) }
                delivered = released
                break
            }
            try sink.deliver(batch)
            delivered = last.seq
        }
        guard delivered > cursor else { return }
        try sink.flush()
        move(to: delivered)
    }

    /// The cursor, when it moved since the last call.
    public func takeCursorChange() -> UInt64? {
        defer { cursorMoved = false }
        return cursorMoved ? cursor : nil
    }

    private func move(to seq: UInt64) {
        guard seq > cursor else { return }
        cursor = seq
        cursorMoved = true
    }
}
