import WaymarkClocks
import WaymarkCore
import WaymarkStore
import WaymarkSystem
import WaymarkUplink

extension Agent {
    /// What one network sink's server answered to `waymark sinks test`.
    public struct SinkTestResult: Sendable {
        public var name: String
        /// Whether the server confirmed the test event.
        public var confirmed: Bool
        /// One line for the installer: what was sent where, and what came back.
        public var text: String
    }

    /// The network sinks' names, for `waymark sinks test NAME`.
    public static let networkSinks = ["traccar", "owntracks", "http"]

    /// `waymark sinks test`: sends one event to each enabled network sink (or to `name` alone) and says what its
    /// server answered, so that an installer checks the URL, the device id and the certificates on a new board.
    ///
    /// The batch endpoint gets a `status` event with `seq` 0 and `"test":true` (no real event has seq 0, so a
    /// receiver that removes duplicates by (`device`, `seq`) keeps real events apart). Traccar keeps positions
    /// only: it gets the newest `location` the spool holds again, with its own `seq` (a position it may already
    /// have), or nothing when the spool has no location yet. OwnTracks gets `_type: test` on `TOPIC/test`, never
    /// retained (``OwnTracksTransport/sendTest(wallClock:)``): a position sent again would replace what its
    /// subscribers hold (its `inregions` as the test saw them, retained over the real one). An MQTT session gets a
    /// few seconds to connect first.
    ///
    /// - Throws: ``ConfigurationError``-like text when `name` names no network sink or none is enabled.
    public static func testSinks(
        _ configuration: Configuration,
        name: String?
    ) throws(SinkTestError) -> [SinkTestResult] {
        if let name, !networkSinks.contains(name) {
            throw SinkTestError(
                "no network sink \(name): the network sinks are \(networkSinks.joined(separator: ", "))"
            )
        }
        let names = networkSinks.filter { name == nil || $0 == name }
        var results: [SinkTestResult] = []
        for sink in names {
            let transport: (any UplinkTransport)?
            do {
                transport = try Storage.makeTransport(sink, configuration)
            } catch {
                results.append(SinkTestResult(name: sink, confirmed: false, text: "\(sink): cannot start: \(error)"))
                continue
            }
            guard let transport else {
                if name != nil { throw SinkTestError("[sinks.\(sink)] is not enabled in the configuration") }
                continue
            }
            results.append(test(transport, configuration))
            (transport as? OwnTracksTransport)?.close()
        }
        guard !results.isEmpty else {
            throw SinkTestError(
                "no network sink is enabled: enable [sinks.traccar], [sinks.owntracks] or [sinks.http] first"
            )
        }
        return results
    }

    private static func test(_ transport: any UplinkTransport, _ configuration: Configuration) -> SinkTestResult {
        let name = transport.name
        let url =
            switch name {
            case "traccar": configuration.traccarSink.uplink.url
            case "owntracks":
                "mqtt\(configuration.ownTracksSink.caFile == nil ? "" : "s")://\(configuration.ownTracksSink.host):"
                    + "\(configuration.ownTracksSink.port) \(configuration.ownTracksSink.topic(deviceID: configuration.agent.deviceID))"
            default: configuration.httpSink.uplink.url
            }
        if let mqtt = transport as? OwnTracksTransport {
            mqtt.waitForConnection(upTo: .seconds(10))
            let started = SystemClocks.monotonic()
            let attempt = mqtt.sendTest(wallClock: SystemClocks.wall())
            return result(
                name,
                "\(name): a test message (_type test, not retained) to \(url)/test",
                attempt,
                started,
                configuration
            )
        }
        let event: StoredEvent
        if name != "http" {
            guard let location = try? openSpool(configuration).lastEvent(of: .location) else {
                return SinkTestResult(
                    name: name,
                    confirmed: false,
                    text: "\(name): nothing sent: it takes positions only, and the spool has no location yet "
                        + "(run the agent until it has a fix)"
                )
            }
            event = location
        } else {
            let line =
                "{\"type\":\"status\",\"seq\":0,\"time\":\"\(SystemClocks.wall().iso8601)\","
                + "\"device\":\(configuration.agent.deviceID.debugDescription),\"test\":true}"
            event = StoredEvent(seq: 0, kind: .status, time: SystemClocks.wall(), line: Array(line.utf8))
        }
        let started = SystemClocks.monotonic()
        let attempt = transport.send([event][...], wallClock: SystemClocks.wall())
        // The batch sink says the coding of the request whose answer this is.
        let coding = (transport as? BatchTransport).map { " in \($0.answeredIn.rawValue)" } ?? ""
        return result(
            name,
            "\(name): \(event.kind) seq \(event.seq)\(coding) to \(url)",
            attempt,
            started,
            configuration
        )
    }

    /// What `attempt`, begun at `started`, came to, for the installer.
    private static func result(
        _ name: String,
        _ sent: String,
        _ attempt: UplinkAttempt,
        _ started: MonotonicInstant,
        _ configuration: Configuration
    ) -> SinkTestResult {
        let milliseconds = Int(((SystemClocks.monotonic() - started).secondsValue * 1000).rounded())
        switch attempt.answer {
        case .confirmed:
            let notice = attempt.notice.map { "; \($0)" } ?? ""
            return SinkTestResult(
                name: name,
                confirmed: true,
                text: "\(sent): confirmed in \(milliseconds) ms\(notice)"
            )
        case .temporary(let reason, let retryAfter):
            let wait = retryAfter.map { ", retry after \(Int($0.secondsValue)) s" } ?? ""
            return SinkTestResult(
                name: name,
                confirmed: false,
                text: "\(sent): failed after \(milliseconds) ms: \(reason)\(wait) (the agent would retry)"
            )
        case .refused(let status, let answer):
            return SinkTestResult(
                name: name,
                confirmed: false,
                text: "\(sent): refused, HTTP \(status)\(answer.isEmpty ? "" : ": \(answer)") (the agent would "
                    + "quarantine such an event)"
            )
        case .misconfigured(let status, let answer):
            return SinkTestResult(
                name: name,
                confirmed: false,
                text: "\(sent): the server refuses the sink's settings, HTTP \(status)"
                    + "\(answer.isEmpty ? "" : ": \(answer)"): check [sinks.\(name)] url and that the server "
                    + "knows device \(configuration.agent.deviceID)"
            )
        }
    }
}

/// Why `waymark sinks test` could not test: a name that is no network sink, or none enabled.
public struct SinkTestError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}
