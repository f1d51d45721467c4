import Logging
import WaymarkClocks
import WaymarkCore
import WaymarkSystem
import WaymarkUplink

/// The board's side of the fleet (docs/fleet.md): on a thread of its own (`fleet`), it starts the MQTT session it
/// shares with the OwnTracks sink (one connection per board, whether the sink sends locations or not), and
/// publishes the status the agent's loop offers (``offer(_:)``), retained on `TOPIC/status`, when
/// ``FleetStatusSchedule`` says. It sleeps on a condition between publications: an idle board costs the MQTT
/// keep-alive and nothing else.
///
/// A publication that fails is said once in the log (and once when it works again), never more: the agent goes
/// on tracking. The session's persistent (the client id is the board's `device_id`): the thread subscribes to
/// `TOPIC/cmd` with QoS 1 at every connection, so the broker keeps the commands sent while the board is away and
/// hands them over when it connects; it runs them (``FleetCommands``) one at a time and publishes their answers.
final class FleetLink: @unchecked Sendable {
    private let client: MQTTClient
    private let topic: String
    /// `TOPIC/cmd`, and what runs the commands received on it; nil without commands.
    private let commandTopic: String
    private let commands: FleetCommands?
    /// The commands received and not yet run, at most ``maximumWaiting``.
    private var waiting: [[UInt8]] = []
    private static let maximumWaiting = 64
    /// The status last offered: its digests and last fix, for the commands.
    private var latest: FleetStatus?
    private let retryMin: Duration
    private let retryMax: Duration
    private let logger: Logger
    /// When the agent started: the published `uptime`.
    private let started: MonotonicInstant
    /// Guards everything below, and is broadcast at every offer, connection change and stop.
    private let condition = MonotonicCondition()
    private var schedule: FleetStatusSchedule
    private var stopping = false
    private var running = false
    /// The connections seen so far (``MQTTClient/connections``): a new one owes a status.
    private var connectionsSeen = 0
    private var failing = false
    /// Counts the broadcasts (an offer, a command, a connection change, a stop): the thread waits only when none
    /// came since it last looked, so one that falls between its look and its wait is not lost.
    private var changes = 0
    /// Status messages published, and their bytes (topic and payload), for the measurements.
    private(set) var published = 0

    /// Where the board's status goes.
    static func statusTopic(_ topic: String) -> String { topic + "/status" }

    init(
        client: MQTTClient,
        topic: String,
        settings: FleetSettings,
        commands: FleetCommands? = nil,
        started: MonotonicInstant,
        logger: Logger
    ) {
        self.client = client
        self.topic = Self.statusTopic(topic)
        commandTopic = topic + "/cmd"
        self.commands = commands
        retryMin = client.settings.retryMin
        retryMax = client.settings.retryMax
        self.started = started
        self.logger = logger
        schedule = FleetStatusSchedule(minimumInterval: settings.statusInterval, refresh: settings.statusRefresh)
        client.onConnectionChange = { [weak self] in self?.wake() }
        if commands != nil {
            // One byte past the limit: the command reader says "too large" without the rest ever being copied.
            client.receiveLimit = FleetCommand.maximumBytes + 1
            client.onMessage = { [weak self] topic, payload, retained in
                self?.receive(topic: topic, payload: payload, retained: retained)
            }
        }
    }

    /// A message on a subscription, on libmosquitto's thread: queued for the fleet's thread. A retained command is
    /// not run: the broker would hand it over again at every reconnection, undoing what came after it.
    private func receive(topic: String, payload: [UInt8], retained: Bool) {
        guard topic == commandTopic else { return }
        guard !retained else {
            logger.warning("a retained fleet command on \(topic) is not run: send commands without the retain flag")
            return
        }
        let kept = condition.locked {
            guard waiting.count < Self.maximumWaiting else { return false }
            waiting.append(payload)
            changes += 1
            condition.broadcast()
            return true
        }
        if !kept { logger.warning("fleet command dropped: \(Self.maximumWaiting) commands already wait") }
    }

    /// Starts the thread.
    func start() {
        condition.locked { running = true }
        DedicatedThread.start(name: "fleet") { [self] in
            run()
            condition.locked {
                running = false
                changes += 1
                condition.broadcast()
            }
        }
    }

    /// The agent's status now; cheap (a store and a broadcast): the thread decides whether it goes.
    func offer(_ status: FleetStatus) {
        condition.locked {
            schedule.offer(status)
            latest = status
            changes += 1
            condition.broadcast()
        }
    }

    /// The agent stops: the thread ends, then `status` goes with `online: false`, retained, waited for up to
    /// `timeout`. Called before the sinks stop (an OwnTracks sink that gives up its last delivery cancels the
    /// shared session); ``close()`` ends the session after them.
    func finish(_ status: FleetStatus, timeout: Duration = .seconds(2)) {
        condition.locked {
            stopping = true
            changes += 1
            condition.broadcast()
            while running { _ = condition.wait(until: nil) }
        }
        if client.isConnected {
            let now = SystemClocks.monotonic()
            let message = MQTTClient.Message(
                topic: topic,
                payload: status.message(online: false, uptime: now - started, wallClock: SystemClocks.wall()),
                retain: true
            )
            let publication = client.publish([message], timeout: timeout)
            if publication.acknowledged == 1 {
                logger.info("fleet status offline published", metadata: ["topic": "\(topic)"])
            } else {
                let problem = publication.problem ?? "no answer"
                logger.warning("the fleet's offline status was not acknowledged: \(problem)")
            }
        }
    }

    /// Ends the session with a DISCONNECT (the broker drops the last will): after ``finish(_:timeout:)`` and the
    /// sinks.
    func close() {
        client.close()
    }

    private func wake() {
        condition.locked {
            changes += 1
            condition.broadcast()
        }
    }

    private func run() {
        var backoff = retryMin
        while true {
            // The first connection, at the backoff's pace; libmosquitto makes the later ones itself.
            if !client.isStarted {
                if let problem = client.start() {
                    if !failing {
                        failing = true
                        logger.error("fleet status not published: \(problem); retrying in \(backoff.configText)")
                    }
                    let deadline = SystemClocks.monotonic() + backoff
                    backoff = min(backoff * 2, retryMax)
                    let stop = condition.locked {
                        while !stopping && SystemClocks.monotonic() < deadline {
                            _ = condition.wait(until: deadline)
                        }
                        return stopping
                    }
                    if stop { return }
                    continue
                }
            }
            // What has changed is counted before the session is read: a change after this look wakes the wait below.
            let seen = condition.locked { changes }
            let connected = client.isConnected
            let connections = client.connections
            let (newConnection, received, status) = condition.locked {
                defer { waiting = [] }
                return (connected && connections != connectionsSeen, waiting, latest)
            }
            if newConnection, commands != nil, let problem = client.subscribe(commandTopic, qos: 1) {
                logger.error("fleet commands not received: \(problem)")
            }
            if let commands {
                for command in received { run(command, with: commands, status: status) }
            }
            let action: FleetStatusSchedule.Action? = condition.locked {
                if stopping { return nil }
                if newConnection {
                    connectionsSeen = connections
                    schedule.connected(at: SystemClocks.monotonic())
                } else if !connected {
                    schedule.disconnected()
                }
                return schedule.next(at: SystemClocks.monotonic())
            }
            switch action {
            case nil:
                return
            case .publish(let status):
                publish(status)
            case .wait(let until):
                condition.locked {
                    // A connection change, an offer, a command or a stop broadcasts; the state is read again after
                    // any.
                    if !stopping && waiting.isEmpty && changes == seen { _ = condition.wait(until: until) }
                }
            }
        }
    }

    /// Runs one command and publishes what it says to, its answer last (QoS 1: resent after a reconnection).
    private func run(_ command: [UInt8], with commands: FleetCommands, status: FleetStatus?) {
        for message in commands.run(command, status: status) {
            if let problem = client.publishWithoutWaiting(message) {
                logger.error("fleet command's answer not published to \(message.topic): \(problem)")
            }
        }
    }

    private func publish(_ status: FleetStatus) {
        let now = SystemClocks.monotonic()
        let payload = status.message(online: true, uptime: now - started, wallClock: SystemClocks.wall())
        let problem = client.publishWithoutWaiting(MQTTClient.Message(topic: topic, payload: payload, retain: true))
        condition.locked {
            if problem == nil {
                schedule.published(status, at: now)
                published += 1
            } else {
                // Not connected after all: the next connection publishes it.
                schedule.disconnected()
            }
        }
        if let problem {
            if !failing { logger.error("fleet status not published to \(topic): \(problem)") }
            failing = true
        } else {
            if failing { logger.notice("fleet status published again to \(topic)") }
            failing = false
            logger.debug("fleet status published", metadata: ["bytes": "\(payload.count)", "topic": "\(topic)"])
        }
    }
}
