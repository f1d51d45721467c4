import Logging
import WaymarkClocks
import WaymarkCore
import WaymarkStore
import WaymarkSystem
import WaymarkUplink

extension Storage {
    /// Opens the spool in `[agent] state_dir` and the sinks the configuration enables. Nothing here stops the
    /// agent: a spool that cannot be opened is moved aside and a fresh one started; one that cannot even be
    /// created leaves the agent running without (nil); each is reported, as an error to emit and a log line.
    ///
    /// - Parameter wake: wakes the agent's loop for the network sinks' progress; nil starts no network sink
    ///   (replay: its events stay in the spool for the next `waymark run`).
    static func open(
        _ configuration: Configuration,
        wake: (@Sendable () -> Void)? = nil,
        mqtt: MQTTClient? = nil,
        logger: Logger
    ) -> (Storage?, [ErrorReport]) {
        var reports: [ErrorReport] = []
        let directory = configuration.agent.stateDirectory
        let spool: Spool
        do {
            let (opened, movedAside) = try Spool.open(inDirectory: directory, now: SystemClocks.wall())
            spool = opened
            if let movedAside {
                let message =
                    "the spool \(opened.path) could not be opened (\(movedAside.reason)); it was moved to "
                    + "\(movedAside.path) and a fresh spool started"
                logger.critical("\(message)")
                reports.append(ErrorReport(code: .spoolCorrupt, message: message))
            }
        } catch {
            let message = "no spool: \(error); events are not kept on disk and reach no sink"
            logger.critical("\(message)")
            return (nil, [ErrorReport(code: .spoolUnavailable, message: message)])
        }
        var sinks: [any Sink] = []
        if configuration.fileSink.enabled {
            let retention = FileSink.Retention(
                maxAgeDays: configuration.fileSink.maxAgeDays,
                maxTotalBytes: configuration.fileSink.maxTotalBytes.bytes
            )
            // No cursor yet: the sink never confirmed a delivery, and the spool hands it everything it holds; with
            // nothing in the spool either (a fresh one), none of the logs' lines can come again.
            let state = try? spool.load()
            do {
                let sink = try FileSink(
                    directory: configuration.agent.logDirectory,
                    retention: retention,
                    tracks: spool,
                    committed: state.flatMap { $0.cursors["file"] ?? ($0.lastSeq > 0 ? 0 : nil) }
                )
                for problem in sink.damage {
                    logger.error("\(problem)")
                    reports.append(ErrorReport(code: .sinkFailure, message: problem, subject: "file"))
                }
                sinks.append(sink)
            } catch {
                let message = "the file sink cannot write its logs: \(error); events stay in the spool"
                logger.error("\(message)")
                reports.append(ErrorReport(code: .sinkFailure, message: message, subject: "file"))
            }
        }
        var uplinks: [Uplink] = []
        var unstarted: [String] = []
        if wake != nil {
            let (transports, failures) = uplinkTransports(configuration, mqtt: mqtt, logger: logger)
            uplinks = transports
            reports += failures
            unstarted = failures.compactMap(\.subject)
        }
        do {
            let storage = try Storage(
                spool: spool,
                sinks: sinks,
                uplinks: uplinks,
                unstarted: unstarted,
                startingNow: Set(Agent.networkSinks.filter { start(ofSink: $0, configuration) == .now }),
                wake: wake ?? {},
                settings: configuration.spool,
                clock: SystemClocks.monotonic,
                logger: logger
            )
            logger.info(
                "spool open",
                metadata: [
                    "path": "\(spool.path)", "last_seq": "\(storage.recovered.lastSeq)",
                    "sinks": "\(sinks.map(\.name) + uplinks.map(\.transport.name))",
                ]
            )
            return (storage, reports)
        } catch {
            let message = "the spool \(spool.path) cannot be read: \(error); events are not kept on disk"
            logger.critical("\(message)")
            return (nil, reports + [ErrorReport(code: .spoolUnavailable, message: message)])
        }
    }
}

extension Storage {
    /// The network sinks the configuration enables, each with its own HTTP client; a sink whose client cannot
    /// start (libcurl missing) is reported and left out: its events stay in the spool.
    static func uplinkTransports(
        _ configuration: Configuration,
        mqtt: MQTTClient? = nil,
        logger: Logger
    ) -> ([Uplink], [ErrorReport]) {
        var transports: [Uplink] = []
        var reports: [ErrorReport] = []
        for name in Agent.networkSinks {
            do {
                guard let transport = try makeTransport(name, configuration, mqtt: mqtt) else { continue }
                let (delivery, budget) =
                    switch name {
                    case "traccar":
                        (configuration.traccarSink.uplink.delivery, configuration.traccarSink.uplink.maxBytesPerDay)
                    case "owntracks": (configuration.ownTracksSink.delivery, configuration.ownTracksSink.maxBytesPerDay)
                    default: (configuration.httpSink.uplink.delivery, configuration.httpSink.uplink.maxBytesPerDay)
                    }
                transports.append(Uplink(transport: transport, settings: delivery, maxBytesPerDay: budget?.bytes))
            } catch {
                let message = "the \(name) sink cannot start: \(error); its events stay in the spool"
                logger.error("\(message)")
                reports.append(ErrorReport(code: .sinkFailure, message: message, subject: name))
            }
        }
        return (transports, reports)
    }

    /// `[sinks.NAME] start` of network sink `name`.
    static func start(ofSink name: String, _ configuration: Configuration) -> SinkStart {
        switch name {
        case "traccar": configuration.traccarSink.uplink.start
        case "owntracks": configuration.ownTracksSink.start
        case "http": configuration.httpSink.uplink.start
        default: preconditionFailure("no network sink is named \(name)")
        }
    }

    /// The transport of network sink `name` (`traccar`, `owntracks`, `http`), or nil when its section does not
    /// enable it.
    static func makeTransport(
        _ name: String,
        _ configuration: Configuration,
        mqtt: MQTTClient? = nil
    ) throws(UplinkFailure) -> (any UplinkTransport)? {
        let device = configuration.agent.deviceID
        switch name {
        case "traccar":
            let settings = configuration.traccarSink.uplink
            guard settings.enabled else { return nil }
            return TraccarTransport(
                url: settings.url,
                deviceID: device,
                client: try HTTPClient(settings: settings.client)
            )
        case "owntracks":
            return try ownTracksTransport(configuration, client: mqtt)
        case "http":
            let settings = configuration.httpSink
            guard settings.uplink.enabled else { return nil }
            return BatchTransport(
                url: settings.uplink.url,
                deviceID: device,
                codings: settings.contentEncoding.codings,
                level: settings.compressionLevel,
                maxBatchBytes: Int(settings.maxBatchBytes.bytes),
                sendsReceiptTimes: settings.sendsReceiptTimes,
                client: try HTTPClient(settings: settings.uplink.client)
            )
        default:
            return nil
        }
    }
}

extension Storage {
    /// The OwnTracks sink's transport, on `client` (the session it shares with the fleet's status) or a session
    /// of its own; the session connects at its first use.
    static func ownTracksTransport(
        _ configuration: Configuration,
        client shared: MQTTClient? = nil
    ) throws(UplinkFailure) -> (any UplinkTransport)? {
        let settings = configuration.ownTracksSink
        guard settings.enabled else { return nil }
        let device = configuration.agent.deviceID
        let topic = settings.topic(deviceID: device)
        let client: MQTTClient
        if let shared { client = shared } else { client = try mqttClient(configuration) }
        return OwnTracksTransport(
            client: client,
            topic: topic,
            tid: settings.tid(deviceID: device),
            retain: settings.retain,
            timeout: settings.timeout,
            drainRate: settings.drainRate > 0 ? settings.drainRate : nil
        )
    }
}

extension Storage {
    /// A password file's first line, without its line end: the password.
    static func passwordLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    /// The board's MQTT session on `[sinks.owntracks]`' broker, with its credentials and TLS: persistent, its
    /// client id the board's `device_id`. Its last will is the fleet's offline status on `TOPIC/status` with
    /// `[fleet] enabled` (MQTT 3.1.1 has one will per connection: docs/fleet.md), OwnTracks' `_type: lwt` on
    /// `TOPIC` otherwise.
    static func mqttClient(_ configuration: Configuration) throws(UplinkFailure) -> MQTTClient {
        let settings = configuration.ownTracksSink
        let device = configuration.agent.deviceID
        var password: String?
        if let file = settings.passwordFile {
            let bytes: [UInt8]
            do {
                bytes = try Files.contents(file)
            } catch {
                throw UplinkFailure(
                    code: -1,
                    message: "[sinks.owntracks] password_file: \(error)",
                    cancelled: false
                )
            }
            password = passwordLine(bytes)
        }
        let topic = settings.topic(deviceID: device)
        let fleet = configuration.fleet.enabled
        return try MQTTClient(
            settings: MQTTClient.Settings(
                host: settings.host,
                port: settings.port,
                clientID: device,
                keepAlive: settings.keepAlive,
                username: settings.username,
                password: password,
                caFile: settings.caFile,
                certFile: settings.certFile,
                keyFile: settings.keyFile,
                retryMin: settings.retryMin,
                retryMax: settings.retryMax,
                willTopic: fleet ? FleetLink.statusTopic(topic) : topic,
                willPayload: fleet
                    ? FleetStatus.lastWill(
                        device: device,
                        version: Agent.release,
                        configDigest: FleetDigests.configuration(configuration)
                    )
                    : OwnTracksMessage.lastWill(connectedAt: SystemClocks.wall().seconds),
                qos: settings.qos
            )
        )
    }
}
