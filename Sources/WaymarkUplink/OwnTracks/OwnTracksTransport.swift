import WaymarkCore
import WaymarkStore

/// OwnTracks over MQTT: each `location` a `_type: location` message on the board's topic, each region crossing a
/// `_type: transition` on `TOPIC/event` (``OwnTracksMessage``), published with QoS 1 by default and delivered when
/// the broker acknowledged it (PUBACK). Events OwnTracks has no message for are skipped.
///
/// A location's `inregions` lists the regions the vehicle is inside as the region events before it in the spool
/// say: read from the spool up to the sink's cursor at its start (``start(after:in:)``), then followed event by
/// event, and taken back with the events a broker did not acknowledge.
public final class OwnTracksTransport: UplinkTransport {
    public let name = "owntracks"
    private let client: MQTTClient
    private let topic: String
    private let tid: String
    private let retain: Bool
    /// How long one attempt waits for the broker's acknowledgements.
    private let timeout: Duration
    /// The regions the vehicle is inside after the last acknowledged event, in the order it entered them.
    private var inside: [String] = []

    /// Messages in one attempt at most.
    static let attemptLimit = 256

    public init(client: MQTTClient, topic: String, tid: String, retain: Bool, timeout: Duration) {
        self.client = client
        self.topic = topic
        self.tid = tid
        self.retain = retain
        self.timeout = timeout
    }

    public func start(after cursor: UInt64, in spool: Spool) {
        try? spool.forEach(through: cursor, kinds: [.region]) { event in
            if let line = try? EventLine(event.line) { Self.apply(line, to: &inside) }
        }
    }

    public func skippable(_ events: ArraySlice<StoredEvent>) -> Int {
        events.prefix { publication(for: $0, inside: inside) == nil }.count
    }

    public func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
        // The messages of the first events, each with the index of its event and what the vehicle is inside
        // after it.
        var messages: [MQTTClient.Message] = []
        var ends: [(index: Int, inside: [String])] = []
        var working = inside
        for index in events.indices {
            guard messages.count < Self.attemptLimit else { break }
            guard let line = try? EventLine(events[index].line) else { continue }
            Self.apply(line, to: &working)
            guard let publication = OwnTracksMessage.publication(for: line, tid: tid, inside: working) else { continue }
            let isLocation = publication.topicSuffix.isEmpty
            messages.append(
                MQTTClient.Message(
                    topic: topic + publication.topicSuffix,
                    payload: publication.payload,
                    retain: retain && isLocation
                )
            )
            ends.append((index, working))
        }
        guard !messages.isEmpty else {
            preconditionFailure("OwnTracksTransport.send: the first event must not be skippable")
        }
        let publication = client.publish(messages, timeout: timeout)
        let acknowledged = publication.acknowledged
        // Every message published counts against a budget, acknowledged or not: a PUBLISH and its PUBACK.
        let bytes = messages.prefix(publication.published).reduce(0) {
            $0 + $1.payload.count + $1.topic.utf8.count + 11
        }
        guard acknowledged > 0 else {
            let problem = publication.problem ?? "not acknowledged"
            let answer: DeliveryPolicy.Answer =
                publication.refusedByBroker
                ? .misconfigured(status: 0, answer: problem) : .temporary(reason: problem, retryAfter: nil)
            return UplinkAttempt(sent: 1, answer: answer, wireBytes: bytes)
        }
        let last = ends[acknowledged - 1]
        inside = last.inside
        return UplinkAttempt(
            sent: last.index - events.startIndex + 1,
            answer: .confirmed,
            wireBytes: bytes
        )
    }

    public func cancel() { client.cancel() }

    /// Waits until the session is connected, at most `limit` (`waymark sinks test`: the session connects in the
    /// background).
    public func waitForConnection(upTo limit: Duration) { client.waitForConnection(upTo: limit) }

    /// Ends the session with a DISCONNECT.
    public func close() { client.close() }

    /// The message of `event`, or nil.
    private func publication(for event: StoredEvent, inside: [String]) -> OwnTracksMessage.Publication? {
        guard event.kind == .location || event.kind == .region, let line = try? EventLine(event.line) else {
            return nil
        }
        return OwnTracksMessage.publication(for: line, tid: tid, inside: inside)
    }

    /// A region event's effect on the regions the vehicle is inside.
    private static func apply(_ line: EventLine, to inside: inout [String]) {
        guard line.type == "region", let id = line.string("id") else { return }
        inside.removeAll { $0 == id }
        if line.string("event") == "enter" { inside.append(id) }
    }
}
