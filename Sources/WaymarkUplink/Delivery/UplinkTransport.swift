import WaymarkCore
import WaymarkStore

/// A network sink's way to its server (Traccar, batch HTTP): what one attempt sends of the events after the
/// sink's cursor, and what the server said of it. The delivery rules around it (``DeliveryPolicy``) are the
/// same for every transport.
///
/// Blocking: called from the sink's own thread.
public protocol UplinkTransport: AnyObject {
    /// The sink's name: its cursor's in the spool and its section's in the configuration (`traccar`, `http`).
    var name: String { get }
    /// How many of the first `events` the server keeps nothing of (Traccar has no place for a heading): the
    /// cursor moves over them without a request.
    func skippable(_ events: ArraySlice<StoredEvent>) -> Int
    /// Sends the first of `events` (not skippable): at least one, at most all, as many as one request takes.
    /// `wallClock` reads a `Retry-After` date.
    func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt
    /// Stops the request under way and every later one: the agent is stopping.
    func cancel()
    /// Called once on the sink's thread before its first attempt, with its cursor: what the transport needs to
    /// know of the events before it.
    func start(after cursor: UInt64, in spool: Spool)
    /// The pace of a sink whose server confirms before its consumers read (MQTT): nil, as fast as it confirms.
    var pace: DrainPace? { get }
    /// Sends `locations`, newer than a backlog still waiting at the ``pace``, ahead of it: the newest position
    /// reaches consumers that keep the newest by its time while the backlog drains. Says how many of the first
    /// were confirmed; they are sent again in order only after a restart.
    func sendAhead(_ locations: [StoredEvent], in spool: Spool, wallClock: Timestamp) -> UplinkAttempt
}

extension UplinkTransport {
    public func start(after cursor: UInt64, in spool: Spool) {}
    public var pace: DrainPace? { nil }
    public func sendAhead(_ locations: [StoredEvent], in spool: Spool, wallClock: Timestamp) -> UplinkAttempt {
        UplinkAttempt(sent: 0, answer: .confirmed, wireBytes: 0)
    }
}

/// A network sink's client that could not start or send: libcurl's or libmosquitto's reason (no connection, a
/// timeout, a certificate refused, a library that cannot be loaded).
public struct UplinkFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The library's code (`CURLcode`, a mosquitto error), or -1.
    public var code: Int
    public var message: String
    /// Whether the agent's stop cancelled it.
    public var cancelled: Bool
    /// Bytes that went on the wire before it failed (a request cut short by a timeout).
    public var wireBytes: Int

    public init(code: Int, message: String, cancelled: Bool, wireBytes: Int = 0) {
        self.code = code
        self.message = message
        self.cancelled = cancelled
        self.wireBytes = wireBytes
    }

    public var description: String { message }
}

/// One request of a network sink: how many events it carried and what came back.
public struct UplinkAttempt: Hashable, Sendable {
    /// The events the request carried, from the first given.
    public var sent: Int
    public var answer: DeliveryPolicy.Answer
    /// Bytes on the wire, both ways, headers included.
    public var wireBytes: Int
    /// The messages that went for those events, when a transport counts them apart (OwnTracks publishes nothing
    /// for a heading): what its ``UplinkTransport/pace`` counts; nil, one per event.
    public var messages: Int?
    /// What the transport learned of its server that the operator should read, once (the batch sink's server
    /// takes another coding than the first).
    public var notice: String?

    public init(sent: Int, answer: DeliveryPolicy.Answer, wireBytes: Int, messages: Int? = nil, notice: String? = nil) {
        self.sent = sent
        self.answer = answer
        self.wireBytes = wireBytes
        self.messages = messages
        self.notice = notice
    }
}

extension HTTPClient {
    /// Sends one request and maps what came back to the delivery rules' answer (RFC 9110, ``DeliveryPolicy``);
    /// `mapStatus` lets a transport read its server's statuses first.
    func attempt(
        url: String,
        headers: [String] = [],
        body: [UInt8]?,
        sent: Int,
        wallClock: Timestamp,
        mapStatus: (Response) -> DeliveryPolicy.Answer? = { _ in nil }
    ) -> UplinkAttempt {
        switch send(url: url, headers: headers, body: body) {
        case .success(let response):
            let answer =
                mapStatus(response)
                ?? DeliveryPolicy.answer(
                    httpStatus: response.status,
                    retryAfter: response.retryAfter,
                    body: response.body,
                    wallClock: wallClock
                )
            return UplinkAttempt(sent: sent, answer: answer, wireBytes: response.sentBytes + response.receivedBytes)
        case .failure(let failure):
            return UplinkAttempt(
                sent: sent,
                answer: .temporary(reason: failure.message, retryAfter: nil),
                wireBytes: failure.wireBytes
            )
        }
    }
}
