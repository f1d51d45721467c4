import WaymarkCore
import WaymarkStore

/// Traccar's OsmAnd protocol over HTTP(S): one request per position (``OsmAndQuery``), in `seq` order, on a
/// connection kept alive. Events Traccar keeps nothing of (`heading`, `status`, `error`, ...) are skipped.
///
/// Traccar answers 200 for a position it stored and 400 both for an unknown device and for a request it cannot
/// read: a 400 is a refusal of that event, and three in a row, none stored between them, a refusal of the sink's
/// settings (``DeliveryPolicy/quarantineLimit``): an unknown device id waits, it never empties the spool into
/// quarantine.
public final class TraccarTransport: UplinkTransport {
    public let name = "traccar"
    private let url: String
    private let deviceID: String
    private let client: HTTPClient
    /// The query of the first event ``skippable(_:)`` found to send, by its `seq`: ``send(_:wallClock:)`` takes it
    /// rather than reading the event's line again.
    private var next: (seq: UInt64, query: String)?

    /// - Parameter url: the server's OsmAnd endpoint, `http://HOST:5055/` by Traccar's default.
    public init(url: String, deviceID: String, client: HTTPClient) {
        self.url = url
        self.deviceID = deviceID
        self.client = client
    }

    public func skippable(_ events: ArraySlice<StoredEvent>) -> Int {
        for (count, event) in events.enumerated() {
            if let query = query(for: event) {
                next = (event.seq, query)
                return count
            }
        }
        return events.count
    }

    public func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
        guard let first = events.first,
            let query = next.flatMap({ $0.seq == first.seq ? $0.query : nil }) ?? query(for: first)
        else {
            preconditionFailure("TraccarTransport.send: the first event must not be skippable")
        }
        let separator = url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
        // A POST with the parameters in the query, as Traccar's own client sends them.
        return client.attempt(url: url + separator + query, body: [], sent: 1, wallClock: wallClock)
    }

    public func cancel() { client.cancel() }

    private func query(for event: StoredEvent) -> String? {
        guard let line = try? EventLine(event.line) else { return nil }
        return OsmAndQuery.query(for: line, deviceID: deviceID)
    }
}
