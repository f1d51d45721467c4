import WaymarkClocks
import WaymarkCore
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
        let inbox = FleetInbox()
        client.onMessage = { topic, payload, _ in inbox.take(topic: topic, payload: payload) }
        defer { client.close() }
        guard client.waitForConnection(upTo: .seconds(10)) else {
            throw FleetError(description: client.connectionProblem)
        }
        if let problem = client.subscribe(pattern) { throw FleetError(description: problem) }
        let messages = inbox.settle(quiet: settle, limit: limit)
        return messages.map { FleetBoard(topic: $0.key, payload: $0.value) }
    }
}

/// The messages `waymark fleet status` received, by topic: written on libmosquitto's thread, read once it settled.
final class FleetInbox: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var messages: [String: [UInt8]] = [:]
    private var last = SystemClocks.monotonic()

    func take(topic: String, payload: [UInt8]) {
        condition.locked {
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
}
