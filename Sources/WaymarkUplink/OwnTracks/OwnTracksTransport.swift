import WaymarkCore
import WaymarkFormats
import WaymarkStore

/// OwnTracks over MQTT: each `location` a `_type: location` message on the board's topic, each region crossing a
/// `_type: transition` on `TOPIC/event` (``OwnTracksMessage``), published with QoS 1 by default and delivered when
/// the broker acknowledged it (PUBACK). Events OwnTracks has no message for are skipped.
///
/// A location's `inregions` lists the regions the vehicle is inside as the region events before it in the spool
/// say: read from the spool up to the sink's cursor at its start (``start(after:in:)``), then followed event by
/// event, and taken back with the events a broker did not acknowledge.
///
/// A broker acknowledges a message once it holds it, not once its consumers read it, and drops what overflows a
/// slow consumer's queue: a backlog goes at the sink's ``pace`` (`drain_rate`), and the newest locations go ahead
/// of it (``sendAhead(_:in:wallClock:)``), retained, while the backlog's older ones are no longer retained.
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
    /// The newest location published retained: an older one (a backlog's, once a newer went ahead) is not retained
    /// over it.
    private var newestRetained: UInt64 = 0
    /// What the vehicle was inside after the newest location sent ahead, and its `seq`: the next locations ahead
    /// read only the region events after it, not the whole spool again.
    private var aheadInside: (through: UInt64, inside: [String])?
    public let pace: DrainPace?

    /// Messages in one attempt at most.
    static let attemptLimit = 256

    /// `drainRate`: messages a second at most (``DrainPace``); nil, as fast as the broker acknowledges.
    public init(client: MQTTClient, topic: String, tid: String, retain: Bool, timeout: Duration, drainRate: Int?) {
        pace = drainRate.map(DrainPace.init(rate:))
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
                    retain: retain && isLocation && events[index].seq > newestRetained
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
            return UplinkAttempt(sent: 1, answer: answer, wireBytes: bytes, messages: publication.published)
        }
        let last = ends[acknowledged - 1]
        inside = last.inside
        newestRetained = max(newestRetained, events[last.index].seq)
        return UplinkAttempt(
            sent: last.index - events.startIndex + 1,
            answer: .confirmed,
            wireBytes: bytes,
            messages: publication.published
        )
    }

    public func sendAhead(_ locations: [StoredEvent], in spool: Spool, wallClock: Timestamp) -> UplinkAttempt {
        guard let newest = locations.last, let first = locations.first else {
            return UplinkAttempt(sent: 0, answer: .confirmed, wireBytes: 0)
        }
        // What the vehicle is inside at each of them: every region event before it, sent or not; after the
        // locations that went ahead last, only the region events since them.
        let known = aheadInside.flatMap { $0.through < first.seq ? $0 : nil }
        var working = known?.inside ?? []
        var regions: [EventLine] = []
        try? spool.forEach(from: (known?.through ?? 0) + 1, through: newest.seq, kinds: [.region]) { event in
            if let line = try? EventLine(event.line) { regions.append(line) }
        }
        var next = regions.startIndex
        var messages: [MQTTClient.Message] = []
        var seqs: [UInt64] = []
        for location in locations {
            guard let line = try? EventLine(location.line) else { continue }
            while next < regions.endIndex, regions[next].seq < location.seq {
                Self.apply(regions[next], to: &working)
                next += 1
            }
            guard let publication = OwnTracksMessage.publication(for: line, tid: tid, inside: working) else { continue }
            messages.append(MQTTClient.Message(topic: topic, payload: publication.payload, retain: retain))
            seqs.append(location.seq)
        }
        aheadInside = (newest.seq, working)
        let publication = client.publish(messages, timeout: timeout)
        let bytes = messages.prefix(publication.published).reduce(0) {
            $0 + $1.payload.count + $1.topic.utf8.count + 11
        }
        // A message published may be held by the broker, acknowledged or not: nothing older is retained over it.
        if publication.published > 0 { newestRetained = max(newestRetained, seqs[publication.published - 1]) }
        guard publication.acknowledged == messages.count else {
            let problem = publication.problem ?? "not acknowledged"
            return UplinkAttempt(sent: 0, answer: .temporary(reason: problem, retryAfter: nil), wireBytes: bytes)
        }
        return UplinkAttempt(sent: locations.count, answer: .confirmed, wireBytes: bytes)
    }

    /// Publishes a message that no consumer takes for a position, never retained (`waymark sinks test`): `_type:
    /// test` with `seq` 0 on `TOPIC/test`, so a subscriber's last position and the broker's retained message stay
    /// the board's own.
    public func sendTest(wallClock: Timestamp) -> UplinkAttempt {
        var payload: [UInt8] = []
        JSONObjectWriter.write(into: &payload) { object in
            object.string("_type", "test")
            object.integer("tst", wallClock.seconds)
            object.string("tid", tid)
            object.integer("seq", 0)
            object.boolean("test", true)
        }
        payload.removeLast()
        let message = MQTTClient.Message(topic: testTopic, payload: payload, retain: false)
        let publication = client.publish([message], timeout: timeout)
        let bytes = publication.published * (payload.count + message.topic.utf8.count + 11)
        guard publication.acknowledged == 1 else {
            let problem = publication.problem ?? "not acknowledged"
            let answer: DeliveryPolicy.Answer =
                publication.refusedByBroker
                ? .misconfigured(status: 0, answer: problem) : .temporary(reason: problem, retryAfter: nil)
            return UplinkAttempt(sent: 1, answer: answer, wireBytes: bytes)
        }
        return UplinkAttempt(sent: 1, answer: .confirmed, wireBytes: bytes)
    }

    /// Where ``sendTest(wallClock:)`` publishes.
    public var testTopic: String { topic + "/test" }

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
