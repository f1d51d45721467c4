import WaymarkClocks
import WaymarkCore
import WaymarkFormats
import WaymarkSystem
import WaymarkUplink

extension Agent {
    /// Where `waymark fleet status` reads: the broker and its credentials, as `[sinks.owntracks]` has them.
    public struct FleetBroker: Sendable {
        public var host: String
        public var port: Int
        public var username: String?
        public var passwordFile: String?
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?

        public init(
            host: String,
            port: Int,
            username: String? = nil,
            passwordFile: String? = nil,
            caFile: String? = nil,
            certFile: String? = nil,
            keyFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.passwordFile = passwordFile
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// Why `waymark fleet status` could not read the broker.
    public struct FleetError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `waymark fleet status`: subscribes to `pattern` on `broker` with a clean session (a client id of its own,
    /// no last will), takes the retained status messages until `settle` passes without a new one (at most
    /// `limit`), and reads each (``FleetBoard``). The last message of a topic wins.
    public static func fleetBoards(
        broker: FleetBroker,
        pattern: String,
        settle: Duration,
        limit: Duration = .seconds(30)
    ) throws(FleetError) -> [FleetBoard] {
        let inbox = FleetInbox()
        let client = try fleetClient(broker, inbox: inbox)
        defer { client.close() }
        if let problem = client.subscribe(pattern) { throw FleetError(description: problem) }
        let messages = inbox.settle(quiet: settle, limit: limit)
        return messages.map { FleetBoard(topic: $0.key, payload: $0.value) }
    }

    /// `waymark fleet send`: reads the boards' statuses on `pattern` (as ``fleetBoards(broker:pattern:settle:limit:)``),
    /// sends `command` (``FleetSend/message(action:id:file:)`` with `id`, made unique per board) to `TOPIC/cmd` of
    /// each board whose device matches `glob`, QoS 1, and waits up to `timeout` for each board's answer on
    /// `TOPIC/cmd/result`. A board that does not answer has the command queued in its persistent session.
    public static func fleetSend(
        broker: FleetBroker,
        pattern: String,
        glob: String,
        action: String,
        file: (name: String, bytes: [UInt8])?,
        settle: Duration,
        timeout: Duration
    ) throws(FleetError) -> [FleetSend.Answer] {
        let inbox = FleetInbox()
        let client = try fleetClient(broker, inbox: inbox)
        defer { client.close() }
        if let problem = client.subscribe(pattern) { throw FleetError(description: problem) }
        let boards = inbox.settle(quiet: settle, limit: .seconds(30)).map {
            FleetBoard(topic: $0.key, payload: $0.value)
        }
        .filter { $0.problem == nil && FleetSend.matches($0.device, glob: glob) }
        .sorted { $0.device.utf8.lexicographicallyPrecedes($1.device.utf8) }
        guard !boards.isEmpty else { return [] }
        let base = "send-\(ProcessIdentity.current.pid)-\(SystemClocks.monotonicNanoseconds() % 1_000_000)"
        var messages: [MQTTClient.Message] = []
        var targets: [(board: FleetBoard, id: String, topic: String)] = []
        for board in boards {
            let topic = String(board.topic.dropLast("/status".count))
            let id = "\(base)-\(board.device)"
            switch FleetSend.message(action: action, id: id, file: file) {
            case .success(let payload):
                messages.append(MQTTClient.Message(topic: topic + "/cmd", payload: payload, retain: false))
            case .failure(let error): throw error
            }
            targets.append((board, id, topic + "/cmd/result"))
        }
        // The answers' topics before the commands: none is missed.
        for topic in Set(targets.map(\.topic)) {
            if let problem = client.subscribe(topic, qos: 1) { throw FleetError(description: problem) }
        }
        let publication = client.publish(messages, timeout: .seconds(30))
        guard publication.acknowledged == messages.count else {
            throw FleetError(description: publication.problem ?? "the broker took \(publication.acknowledged) commands")
        }
        let results = inbox.waitForAnswers(Set(targets.map(\.id)), limit: timeout)
        return targets.map {
            FleetSend.answer(
                device: $0.board.device,
                id: $0.id,
                result: results[$0.id],
                online: $0.board.online,
                timeout: timeout
            )
        }
    }

    /// A clean session of the operator's own (no last will) on `broker`, its messages into `inbox`, connected.
    private static func fleetClient(_ broker: FleetBroker, inbox: FleetInbox) throws(FleetError) -> MQTTClient {
        var password: String?
        if let file = broker.passwordFile {
            guard let bytes = try? Files.contents(file) else {
                throw FleetError(description: "cannot read the password file \(file)")
            }
            password = Storage.passwordLine(bytes)
        }
        let client: MQTTClient
        do {
            client = try MQTTClient(
                settings: MQTTClient.Settings(
                    host: broker.host,
                    port: broker.port,
                    clientID:
                        "waymark-fleet-\(ProcessIdentity.current.pid)-\(SystemClocks.monotonicNanoseconds() % 100_000)",
                    keepAlive: .seconds(30),
                    username: broker.username,
                    password: password,
                    caFile: broker.caFile,
                    certFile: broker.certFile,
                    keyFile: broker.keyFile,
                    willTopic: "",
                    willPayload: [],
                    qos: 1,
                    cleanSession: true
                )
            )
        } catch {
            throw FleetError(description: "\(error)")
        }
        client.onMessage = { topic, payload, _ in inbox.take(topic: topic, payload: payload) }
        guard client.waitForConnection(upTo: .seconds(10)) else {
            let problem = client.connectionProblem
            client.close()
            throw FleetError(description: problem)
        }
        return client
    }
}

/// The messages `waymark fleet status` received, by topic: written on libmosquitto's thread, read once it settled.
final class FleetInbox: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var messages: [String: [UInt8]] = [:]
    private var last = SystemClocks.monotonic()

    /// The answers of `waymark fleet send`, by their `id`.
    private var answers: [String: [UInt8]] = [:]

    func take(topic: String, payload: [UInt8]) {
        condition.locked {
            if topic.hasSuffix("/cmd/result") {
                if let id = (try? JSONValue(parsing: payload))?["id"]?.string { answers[id] = payload }
                condition.broadcast()
                return
            }
            messages[topic] = payload
            last = SystemClocks.monotonic()
            condition.broadcast()
        }
    }

    /// Waits until `quiet` passed without a message, at most `limit`; what came.
    func settle(quiet: Duration, limit: Duration) -> [String: [UInt8]] {
        let end = SystemClocks.monotonic() + limit
        return condition.locked {
            last = SystemClocks.monotonic()
            while true {
                let deadline = min(last + quiet, end)
                if SystemClocks.monotonic() >= deadline { return messages }
                _ = condition.wait(until: deadline)
            }
        }
    }

    /// Waits until an answer came for each of `ids`, at most `limit`; the answers by id.
    func waitForAnswers(_ ids: Set<String>, limit: Duration) -> [String: [UInt8]] {
        let end = SystemClocks.monotonic() + limit
        return condition.locked {
            while !ids.isSubset(of: answers.keys), SystemClocks.monotonic() < end { _ = condition.wait(until: end) }
            return answers
        }
    }
}
