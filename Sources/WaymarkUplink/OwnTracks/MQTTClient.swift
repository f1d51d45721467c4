import CUplink
import WaymarkSystem

/// One MQTT 3.1.1 session with a broker through libmosquitto: its network loop (connecting, reconnecting with
/// backoff, keep-alive pings, acknowledgements) runs on libmosquitto's own thread; ``publish(_:timeout:)`` blocks
/// the caller's thread until the broker acknowledged the messages.
///
/// The session is persistent (`clean_session = false`, the client id is the board's device id), so the broker
/// keeps what it owes across reconnections; a last will (`_type: lwt`) tells subscribers when the board's
/// connection died without a goodbye. libmosquitto is loaded at the first client (``CUplink``), so a board
/// without MQTT never maps it or its OpenSSL.
public final class MQTTClient: @unchecked Sendable {
    public struct Settings: Hashable, Sendable {
        public var host: String
        public var port: Int
        /// The client id: the board's device id, so the broker keeps one session per board.
        public var clientID: String
        public var keepAlive: Duration
        public var username: String?
        public var password: String?
        /// TLS when set: the certificate authorities to verify the broker against (PEM), and optionally a client
        /// certificate and its key.
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?
        /// The reconnection's backoff, doubling from `retryMin` up to `retryMax` (whole seconds, at least 1).
        public var retryMin: Duration
        public var retryMax: Duration
        /// The last will: its topic and payload, published with `qos`, retained; none when the topic is empty.
        public var willTopic: String
        public var willPayload: [UInt8]
        public var qos: Int
        /// Whether the broker forgets the session at a disconnection (`waymark fleet status`); the agent's is
        /// persistent.
        public var cleanSession: Bool

        public init(
            host: String,
            port: Int,
            clientID: String,
            keepAlive: Duration = .seconds(60),
            username: String? = nil,
            password: String? = nil,
            caFile: String? = nil,
            certFile: String? = nil,
            keyFile: String? = nil,
            retryMin: Duration = .seconds(1),
            retryMax: Duration = .seconds(300),
            willTopic: String,
            willPayload: [UInt8],
            qos: Int = 1,
            cleanSession: Bool = false
        ) {
            self.host = host
            self.port = port
            self.clientID = clientID
            self.keepAlive = keepAlive
            self.username = username
            self.password = password
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
            self.retryMin = retryMin
            self.retryMax = retryMax
            self.willTopic = willTopic
            self.willPayload = willPayload
            self.qos = qos
            self.cleanSession = cleanSession
        }
    }

    /// One message to publish.
    public struct Message: Hashable, Sendable {
        public var topic: String
        public var payload: [UInt8]
        public var retain: Bool

        public init(topic: String, payload: [UInt8], retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    /// The session's state, changed by libmosquitto's thread and read by the publisher's, under ``condition``.
    private struct State {
        var connected = false
        /// Why the client is not connected: the broker's CONNACK, the connection's loss, or libmosquitto's last
        /// error line (a certificate refused).
        var problem: String? = "connecting"
        /// Messages the broker acknowledged (PUBACK for QoS 1) and not yet taken by ``publish(_:timeout:)``.
        var acknowledged: Set<Int32> = []
        /// Whether the broker's last CONNACK refused the connection.
        var refusedByBroker = false
        /// Messages published by ``publishWithoutWaiting(_:)``: their acknowledgements are not waited for.
        var unawaited: Set<Int32> = []
        /// Messages a ``publish(_:timeout:)`` under way waits for: their acknowledgements are kept when another
        /// publish starts (the sink's and the fleet's last status may wait at once).
        var awaited: Set<Int32> = []
        /// Connections the broker accepted so far: a new one (a reconnection) is a new session state to publish.
        var connections = 0
        /// libmosquitto's last error line (OpenSSL's reason for a certificate refused), for the message.
        var lastError: String?
        var cancelled = false
    }

    public let settings: Settings
    private let client: OpaquePointer
    /// Guards ``current`` and is broadcast at every change of it: the publisher waits on it, on the monotonic
    /// clock (a wall clock set back must not stretch a publication's timeout).
    private let condition = MonotonicCondition()
    private var current = State()
    private var closed = false
    /// Whether the network loop runs (``startIfNeeded()``), under ``starting``: the sink's worker and the fleet's
    /// thread both start the one session.
    private var loopStarted = false
    private let starting = MonotonicCondition()
    /// Told, on libmosquitto's thread, of every connection and disconnection (the fleet's status publisher).
    /// Set before the session starts.
    public var onConnectionChange: (@Sendable () -> Void)?
    /// Told, on libmosquitto's thread, of every message received on a subscription: its topic, its payload,
    /// whether the broker had it retained. Set before the session starts.
    public var onMessage: (@Sendable (String, [UInt8], Bool) -> Void)?
    /// The most bytes of a received message handed to ``onMessage``; a longer one is cut there. Set before the
    /// session starts.
    public var receiveLimit = Int.max

    /// Makes the session; it connects at the first ``publish(_:timeout:)`` (or ``waitForConnection(upTo:)``),
    /// then keeps its connection in the background, and ``publish(_:timeout:)`` says why it is not there.
    ///
    /// - Throws: ``HTTPClient/UplinkFailure`` (the uplinks' one failure type) when libmosquitto cannot be loaded
    ///   or refuses the settings (a TLS file it cannot read).
    public init(settings: Settings) throws(UplinkFailure) {
        if let failure = waymark_mosquitto_open() {
            throw UplinkFailure(code: -1, message: String(cString: failure), cancelled: false)
        }
        self.settings = settings
        // The callbacks' context is set once this object exists (configure()); it outlives the client.
        guard let client = waymark_mosquitto_new(settings.clientID, settings.cleanSession, nil) else {
            throw UplinkFailure(code: -1, message: "mosquitto_new failed", cancelled: false)
        }
        self.client = client
        // On a failure the object is released and `deinit` (``close()``) destroys the client: once.
        try configure()
    }

    deinit { close() }

    /// Ends the session with a DISCONNECT (the broker then keeps the last will to itself), stops the loop.
    public func close() {
        guard !closed else { return }
        closed = true
        // Connected, the loop ends with the DISCONNECT; not, it may sit in a connect to a broker that does not
        // answer (minutes on a cellular link) and is cancelled rather than waited for.
        let connected = isConnected
        _ = waymark_mosquitto_disconnect(client)
        if starting.locked({ loopStarted }) { _ = waymark_mosquitto_loop_stop(client, !connected) }
        waymark_mosquitto_destroy(client)
    }

    /// Stops a ``publish(_:timeout:)`` under way and every later one: the agent is stopping.
    public func cancel() {
        update { $0.cancelled = true }
    }

    /// Whether the session is connected now.
    public var isConnected: Bool { withState { $0.connected } }

    /// Why the session is not connected, for a person: `not connected to mqtt://HOST:PORT: REASON`.
    public var connectionProblem: String {
        "not connected to \(endpoint): \(withState { $0.problem } ?? "connecting")"
    }

    /// Connections the broker accepted so far.
    public var connections: Int { withState { $0.connections } }

    /// Whether the session started (a first connection was made): libmosquitto then reconnects by itself.
    public var isStarted: Bool { starting.locked { loopStarted } }

    /// Starts the session when it is not yet started: one connection attempt. Nil once started, else why not.
    public func start() -> String? { startIfNeeded() }

    /// Publishes `message` without waiting for the broker's acknowledgement (QoS as the session's, which then
    /// resends it after a reconnection as MQTT does): nil when libmosquitto took it, else why not.
    public func publishWithoutWaiting(_ message: Message) -> String? {
        let (code, id) = send(message)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            return "not published to \(endpoint): \(String(cString: waymark_mosquitto_strerror(code)))"
        }
        // Its acknowledgement, come already or to come, confirms no ``publish(_:timeout:)``.
        withState { state in
            if state.acknowledged.remove(id) == nil { state.unawaited.insert(id) }
        }
        return nil
    }

    /// Subscribes to `pattern` (MQTT wildcards allowed) with `qos`, by default the session's; ``onMessage`` gets
    /// what comes. Nil when libmosquitto took the request, else why not.
    public func subscribe(_ pattern: String, qos: Int? = nil) -> String? {
        var id: Int32 = 0
        let code = waymark_mosquitto_subscribe(client, &id, pattern, Int32(qos ?? settings.qos))
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            return "cannot subscribe to \(pattern): \(String(cString: waymark_mosquitto_strerror(code)))"
        }
        return nil
    }

    /// Waits until the session is connected, at most `limit`; whether it is.
    @discardableResult
    public func waitForConnection(upTo limit: Duration) -> Bool {
        if startIfNeeded() != nil { return false }
        let deadline = Self.deadline(after: limit)
        return condition.locked {
            while !current.connected {
                if condition.wait(untilNanoseconds: deadline) { return current.connected }
            }
            return true
        }
    }

    /// Publishes `messages` in order and waits until the broker acknowledged them, the connection was lost, or
    /// `timeout` passed. Returns how many of the first messages were acknowledged, and why the others were not.
    public func publish(_ messages: [Message], timeout: Duration) -> Publication {
        if let problem = startIfNeeded() { return Publication(acknowledged: 0, problem: problem) }
        // A session just started waits for its CONNACK.
        if !isConnected { waitForConnection(upTo: min(timeout, .seconds(5))) }
        let problem: Publication? = withState { state in
            if state.cancelled { return Publication(acknowledged: 0, problem: "stopped") }
            guard !state.connected else {
                // Acknowledgements of earlier attempts' messages, come late, must not confirm this one's; those
                // another publish waits for are its own.
                state.acknowledged.formIntersection(state.awaited)
                return nil
            }
            return Publication(
                acknowledged: 0,
                problem: "not connected to \(endpoint): \(state.problem ?? "connecting")",
                refusedByBroker: state.refusedByBroker
            )
        }
        if let problem { return problem }
        var ids: [Int32] = []
        var refusal: String?
        for message in messages {
            let (code, id) = send(message)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                refusal = "the message was not published: \(String(cString: waymark_mosquitto_strerror(code)))"
                break
            }
            ids.append(id)
            withState { state in _ = state.awaited.insert(id) }
        }
        let deadline = Self.deadline(after: timeout)
        return condition.locked {
            while true {
                let count = ids.prefix { current.acknowledged.contains($0) }.count
                var stop: String?
                if current.cancelled {
                    stop = "stopped"
                } else if !current.connected {
                    stop = "the connection to \(endpoint) was lost: \(current.problem ?? "")"
                }
                if count == ids.count || stop != nil {
                    for id in ids {
                        current.acknowledged.remove(id)
                        current.awaited.remove(id)
                    }
                    return Publication(acknowledged: count, published: ids.count, problem: stop ?? refusal)
                }
                if condition.wait(untilNanoseconds: deadline) {
                    let count = ids.prefix { current.acknowledged.contains($0) }.count
                    for id in ids {
                        current.acknowledged.remove(id)
                        current.awaited.remove(id)
                    }
                    return Publication(
                        acknowledged: count,
                        published: ids.count,
                        problem: "\(endpoint) acknowledged \(count) of \(ids.count) messages within \(timeout)"
                    )
                }
            }
        }
    }

    /// Hands `message` to libmosquitto with the session's QoS: its code and the message's id.
    private func send(_ message: Message) -> (code: Int32, id: Int32) {
        var id: Int32 = 0
        let code = message.payload.withUnsafeBytes { payload in
            waymark_mosquitto_publish(
                client,
                &id,
                message.topic,
                Int32(payload.count),
                payload.baseAddress,
                Int32(settings.qos),
                message.retain
            )
        }
        return (code, id)
    }

    /// What one ``publish(_:timeout:)`` came to.
    public struct Publication: Sendable {
        /// How many of the first messages the broker acknowledged.
        public var acknowledged: Int
        /// How many went to libmosquitto to send.
        public var published = 0
        /// Why the others were not.
        public var problem: String?
        /// Whether the broker refused the connection itself (a CONNACK with a refusal: the credentials, the
        /// client id): the sink's settings, not its messages.
        public var refusedByBroker = false
    }

    /// `duration` from now, in nanoseconds on the monotonic clock (``MonotonicCondition``'s deadlines).
    private static func deadline(after duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        return SystemClocks.monotonicNanoseconds() + min(nanoseconds, Int64(Int32.max) * 1_000_000_000)
    }

    private var endpoint: String { "mqtt\(settings.caFile == nil ? "" : "s")://\(settings.host):\(settings.port)" }

    private func configure() throws(UplinkFailure) {
        func check(_ code: Int32, _ what: String) throws(UplinkFailure) {
            guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
            let reason = String(cString: waymark_mosquitto_strerror(code))
            throw UplinkFailure(code: Int(code), message: "\(what): \(reason)", cancelled: false)
        }
        try check(waymark_mosquitto_use_mqtt311(client), "MQTT 3.1.1")
        if let username = settings.username {
            try check(waymark_mosquitto_credentials(client, username, settings.password), "the credentials")
        }
        guard !settings.willTopic.isEmpty else { return try configureConnection(check) }
        try check(
            settings.willPayload.withUnsafeBytes { payload in
                waymark_mosquitto_will(
                    client,
                    settings.willTopic,
                    Int32(payload.count),
                    payload.baseAddress,
                    Int32(settings.qos),
                    true
                )
            },
            "the last will"
        )
        try configureConnection(check)
    }

    private func configureConnection(_ check: (Int32, String) throws(UplinkFailure) -> Void) throws(UplinkFailure) {
        if let caFile = settings.caFile {
            try check(
                waymark_mosquitto_tls(client, caFile, settings.certFile, settings.keyFile),
                "TLS with \(caFile)"
            )
        }
        let seconds = { (duration: Duration) in UInt32(max(1, min(duration.components.seconds, 86_400))) }
        try check(
            waymark_mosquitto_reconnect_delay(client, seconds(settings.retryMin), seconds(settings.retryMax)),
            "the reconnection's backoff"
        )
        // Messages on their way at once: enough for loopback and cellular round trips alike.
        try check(waymark_mosquitto_max_inflight(client, 100), "the messages in flight")
        waymark_mosquitto_set_context(client, Unmanaged.passUnretained(self).toOpaque())
        waymark_mosquitto_callbacks(
            client,
            { _, context, code in
                let session = MQTTClient.of(context)
                session?.update { state in
                    state.connected = code == 0
                    if code == 0 { state.connections += 1 }
                    state.problem =
                        code == 0
                        ? nil : "the broker refused: \(String(cString: waymark_mosquitto_connack_string(code)))"
                }
                session?.onConnectionChange?()
            },
            { _, context, code in
                let session = MQTTClient.of(context)
                session?.update { state in
                    state.connected = false
                    state.problem = code == 0 ? "disconnected" : String(cString: waymark_mosquitto_strerror(code))
                }
                session?.onConnectionChange?()
            },
            { _, context, id in
                MQTTClient.of(context)?.update { state in
                    if state.unawaited.remove(id) == nil { state.acknowledged.insert(id) }
                }
            },
            { _, context, level, text in
                // Errors only: a certificate refused, a connection refused, a TLS handshake that failed.
                guard level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
                let line = String(cString: text)
                MQTTClient.of(context)?.update { state in
                    state.lastError = line
                    if !state.connected { state.problem = line }
                }
            }
        )
    }

    /// Starts the session when it is not yet started: a connection, then the network loop, which reconnects by
    /// itself (with the backoff) after a loss. Until a first connection succeeds the caller's attempts pace the
    /// tries: libmosquitto 2.0's loop retries a connection refused at its start without a pause (about a hundred
    /// wake-ups a second, measured). Nil once started, else why not.
    private func startIfNeeded() -> String? {
        starting.locked { startLocked() }
    }

    private func startLocked() -> String? {
        guard !loopStarted else { return nil }
        let keepAlive = Int32(max(5, min(settings.keepAlive.components.seconds, 65_535)))
        withState { $0.lastError = nil }
        let code = waymark_mosquitto_connect(client, settings.host, Int32(settings.port), keepAlive)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            // What libmosquitto logged on the way (OpenSSL's reason), else its code's text.
            let reason = withState { $0.lastError } ?? String(cString: waymark_mosquitto_strerror(code))
            let problem = "not connected to \(endpoint): \(reason)"
            update { $0.problem = problem }
            return problem
        }
        if onMessage != nil {
            waymark_mosquitto_on_message(client) { _, context, topic, payload, length, retained in
                guard let session = MQTTClient.of(context), let topic else { return }
                // At most receiveLimit bytes are copied: a longer message arrives cut there, for its reader to
                // refuse as too large without holding it twice.
                let count = min(Int(max(0, length)), session.receiveLimit)
                let bytes = payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
                session.onMessage?(String(cString: topic), bytes, retained)
            }
        }
        let started = waymark_mosquitto_loop_start(client)
        guard started == MOSQ_ERR_SUCCESS.rawValue else {
            return "the network loop did not start: \(String(cString: waymark_mosquitto_strerror(started)))"
        }
        loopStarted = true
        return nil
    }

    /// Changes the state and wakes the publisher. Never called with ``condition``'s mutex held.
    private func update(_ body: (inout State) -> Void) {
        condition.locked {
            body(&current)
            condition.broadcast()
        }
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        condition.locked { body(&current) }
    }

    /// The client a callback is for, from its context.
    private static func of(_ context: UnsafeMutableRawPointer?) -> MQTTClient? {
        context.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }
}
