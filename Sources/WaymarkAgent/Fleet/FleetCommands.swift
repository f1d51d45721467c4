import Glibc
import WaymarkCore
import WaymarkFormats
import WaymarkSystem
import WaymarkUplink

/// Runs the commands a board takes on `TOPIC/cmd` (docs/fleet.md, "Commands"), on the fleet's thread: reads each
/// (``FleetCommand``), does what it asks, and says what to publish: what the command asked for (a location, the
/// waypoints, the configuration), then its answer on `TOPIC/cmd/result`. Every command, run or refused, is told
/// to the agent's loop as a `command` event (``Hooks/report``). A command never leaves the board worse: what is
/// refused changes nothing, and what is written is checked first and written atomically.
struct FleetCommands: Sendable {
    /// What the commands reach in the running agent.
    struct Hooks: Sendable {
        /// Loads the remote regions again, at once (``RegionFileService/check()``).
        var regionsChanged: @Sendable () -> Void = {}
        /// Applies the configuration again, as SIGHUP does; nil when the agent runs without a file to reload, and
        /// then `setConfiguration` is refused.
        var reload: (@Sendable () -> Void)?
        /// Where the configuration in effect comes from.
        var source: ConfigurationSource?
        /// Tells the agent's loop of a command run or refused.
        var report: @Sendable (CommandReport) -> Void = { _ in }
        /// The last usable fix now, as the agent's loop left it after its last batch.
        var lastKnown: @Sendable () -> Location? = { nil }
    }

    var device: String
    /// The board's OwnTracks topic.
    var topic: String
    var tid: String
    var stateDirectory: String
    var regions: RegionsSettings
    var accepted: Set<FleetCommand.Action>
    /// The configuration the agent started with: what `dump` shows without a source to read again.
    var configuration: Configuration
    var hooks = Hooks()

    /// The fleet's remote region set under `[agent] state_dir`.
    static func regionsPath(stateDirectory: String) -> String { stateDirectory + "/fleet-regions.geojson" }

    /// The fleet's remote configuration under `[agent] state_dir`.
    static func configurationPath(stateDirectory: String) -> String { stateDirectory + "/fleet-config.toml" }

    /// Where the answers go.
    static func resultTopic(_ topic: String) -> String { topic + "/cmd/result" }

    /// Runs the command `bytes`; `status` is the agent's latest (its digests). Returns the messages
    /// to publish, the answer last.
    func run(_ bytes: [UInt8], status: FleetStatus?) -> [MQTTClient.Message] {
        var digest = status?.configDigest ?? FleetDigests.configuration(configuration)
        var messages: [MQTTClient.Message] = []
        var outcome: (id: String?, action: String?, ok: Bool, message: String)
        switch FleetCommand.read(bytes, accepting: accepted) {
        case .failure(let refusal):
            outcome = (refusal.id, refusal.action, false, refusal.message)
        case .success(let command):
            let done: Result<String, Refusal>
            switch command.action {
            case .reportLocation:
                done = reportLocation(hooks.lastKnown(), into: &messages)
            case .setWaypoints:
                guard case .regions(let text) = command.payload else { preconditionFailure("read with its regions") }
                done = setRegions(text)
            case .clearWaypoints:
                done = clearRegions()
            case .waypoints:
                done = publishRegions(into: &messages)
            case .dump:
                messages.append(dump(digest: digest))
                done = .success("configuration published on \(topic)/dump")
            case .setConfiguration:
                guard case .configuration(let text) = command.payload else {
                    preconditionFailure("read with its configuration")
                }
                done = setConfiguration(text, digest: &digest)
            }
            switch done {
            case .success(let message): outcome = (command.id, command.action.rawValue, true, message)
            case .failure(let refusal): outcome = (command.id, command.action.rawValue, false, refusal.message)
            }
        }
        hooks.report(
            CommandReport(
                action: outcome.action,
                id: outcome.id,
                ok: outcome.ok,
                message: outcome.message,
                configDigest: digest
            )
        )
        let result = FleetCommandResult(
            device: device,
            id: outcome.id,
            action: outcome.action,
            ok: outcome.ok,
            message: outcome.message,
            configDigest: digest
        )
        messages.append(MQTTClient.Message(topic: Self.resultTopic(topic), payload: result.payload, retain: false))
        return messages
    }

    /// Why a command was refused.
    struct Refusal: Error {
        var message: String
    }

    /// The last fix as OwnTracks' `_type: location` with `t: "r"` (a report asked for), on the board's topic.
    private func reportLocation(
        _ location: Location?,
        into messages: inout [MQTTClient.Message]
    ) -> Result<String, Refusal> {
        guard let location else { return .failure(Refusal(message: "no fix yet: no location to report")) }
        var payload: [UInt8] = []
        JSONObjectWriter.write(into: &payload) { object in
            object.string("_type", "location")
            object.number("lat", location.latitude)
            object.number("lon", location.longitude)
            object.integer("tst", location.time.seconds)
            let whole = { (value: Double?) in value.map { $0.rounded() } }
            object.number("acc", whole(location.horizontalAccuracy))
            object.number("alt", whole(location.altitudeMSL ?? location.altitudeHAE))
            object.number("vel", whole(location.speed.map { $0 * 3.6 }))
            object.number("cog", whole(location.course))
            object.string("tid", tid)
            object.string("t", "r")
        }
        payload.removeLast()
        messages.append(MQTTClient.Message(topic: topic, payload: payload, retain: false))
        return .success("location of \(location.time) published on \(topic)")
    }

    /// Replaces the remote set with the regions of `text`, checked as `waymark regions import` checks them: into
    /// a file of its own, renamed over the set when every region passed.
    private func setRegions(_ text: [UInt8]) -> Result<String, Refusal> {
        let path = Self.regionsPath(stateDirectory: stateDirectory)
        let incoming = path + ".incoming"
        _ = Files.remove(incoming)
        defer { _ = Files.remove(incoming) }
        let input = RegionInput(parsing: text, name: "setWaypoints")
        if input.textProblems.isEmpty && input.features.isEmpty { return clearRegions() }
        let editor = RegionFileEditor(path: incoming, settings: regions)
        do {
            let merge = try editor.merge(input, skippingInvalid: false)
            guard merge.written else {
                let first = merge.problems.first ?? "no region"
                let more = merge.problems.count > 1 ? " (and \(merge.problems.count - 1) more)" : ""
                return .failure(Refusal(message: "\(first)\(more); the remote regions are unchanged"))
            }
        } catch {
            let first = error.problems.first.map { $0 + "; " } ?? ""
            return .failure(Refusal(message: "\(first)\(error.message); the remote regions are unchanged"))
        }
        guard rename(incoming, path) == 0 else {
            let failure = SystemError(call: "rename", path: path)
            return .failure(Refusal(message: "\(failure); the remote regions are unchanged"))
        }
        Files.syncDirectory(of: path)
        hooks.regionsChanged()
        return .success("\(input.features.count) remote regions set")
    }

    private func clearRegions() -> Result<String, Refusal> {
        let path = Self.regionsPath(stateDirectory: stateDirectory)
        guard Files.remove(path) || errno == ENOENT else {
            return .failure(Refusal(message: "\(SystemError(call: "unlink", path: path))"))
        }
        Files.syncDirectory(of: path)
        hooks.regionsChanged()
        return .success("remote regions cleared")
    }

    /// The remote set as OwnTracks' `_type: waypoints` on `TOPIC/waypoints`.
    private func publishRegions(into messages: inout [MQTTClient.Message]) -> Result<String, Refusal> {
        let path = Self.regionsPath(stateDirectory: stateDirectory)
        let entries: [RegionFile.Entry]
        do {
            entries = try RegionFileEditor(path: path, settings: regions).entries() ?? []
        } catch {
            return .failure(Refusal(message: error.message))
        }
        messages.append(
            MQTTClient.Message(
                topic: topic + "/waypoints",
                payload: FleetWaypoints.message(device: device, entries: entries),
                retain: false
            )
        )
        return .success("\(entries.count) remote regions published on \(topic)/waypoints")
    }

    /// `{"_type":"configuration","device","config_digest","configuration"}` on `TOPIC/dump`: the configuration in
    /// effect as its digest's canonical text, every key the agent reads with its value.
    private func dump(digest: String) -> MQTTClient.Message {
        let effective = (try? hooks.source?.load()) ?? configuration
        var payload: [UInt8] = []
        JSONObjectWriter.write(into: &payload) { object in
            object.string("_type", "configuration")
            object.string("device", device)
            object.string("config_digest", digest)
            object.string("configuration", FleetDigests.canonicalText(of: effective))
        }
        payload.removeLast()
        return MQTTClient.Message(topic: topic + "/dump", payload: payload, retain: false)
    }

    /// Checks `text` exactly as `waymark check-config` does, then writes it atomically as the remote configuration
    /// and reloads; `digest` becomes the new configuration's.
    private func setConfiguration(_ text: String, digest: inout String) -> Result<String, Refusal> {
        guard let reload = hooks.reload else {
            return .failure(Refusal(message: "this agent has no configuration to reload; the configuration is kept"))
        }
        let path = Self.configurationPath(stateDirectory: stateDirectory)
        let incoming = path + ".incoming"
        defer { _ = Files.remove(incoming) }
        let kept = "; the running configuration is kept"
        do {
            try AtomicFile.write(Array(text.utf8), to: incoming)
        } catch {
            return .failure(Refusal(message: "\(error)\(kept)"))
        }
        do {
            _ = try Agent.checkConfiguration(incoming)
        } catch {
            // The lines name the document as the command carried it, not the file it was checked in.
            let names = [incoming, String(incoming.split(separator: "/").last ?? "")]
            let lines = error.issues.map { issue in
                var line = issue.description
                if let name = names.first(where: { line.hasPrefix($0 + ":") }) {
                    line = "setConfiguration" + line.dropFirst(name.count)
                }
                return line
            }
            let more = lines.count > 1 ? " (and \(lines.count - 1) more)" : ""
            return .failure(Refusal(message: "\(lines.first ?? "rejected")\(more)\(kept)"))
        }
        guard let loaded = try? Configuration.load(contentsOf: incoming), loaded.fleet.enabled else {
            return .failure(
                Refusal(message: "[fleet] enabled must stay true: the board would leave its fleet\(kept)")
            )
        }
        guard rename(incoming, path) == 0 else {
            return .failure(Refusal(message: "\(SystemError(call: "rename", path: path))\(kept)"))
        }
        Files.syncDirectory(of: path)
        reload()
        if let effective = try? hooks.source?.load() { digest = FleetDigests.configuration(effective) }
        return .success("configuration applied (\(path)); \(ConfigurationReloadService.appliedAtNextStart)")
    }
}
