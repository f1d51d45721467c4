import WaymarkFormats

/// A command a board takes on `TOPIC/cmd` (docs/fleet.md, "Commands"): OwnTracks' `{"_type": "cmd", "action": …}`,
/// read strictly. Reading never fails: a message that is not a command Waymark runs, or not one `[fleet] accept`
/// lists, is a ``Refusal`` that names what is wrong, answered `ok: false`, and nothing changes.
struct FleetCommand: Sendable, Equatable {
    /// The actions a board knows, named as OwnTracks names them.
    enum Action: String, Sendable, CaseIterable {
        case reportLocation, setWaypoints, clearWaypoints, waypoints, dump, setConfiguration
    }

    /// What a `setWaypoints` or `setConfiguration` carries.
    enum Payload: Sendable, Equatable {
        case none
        /// The remote region set as a GeoJSON text (OwnTracks waypoints already mapped, ``FleetWaypoints``).
        case regions([UInt8])
        /// A whole Waymark TOML document.
        case configuration(String)
    }

    /// Why a message is not run: its `id` and `action` when they could be read, for the answer.
    struct Refusal: Error, Sendable, Equatable {
        var id: String?
        var action: String?
        var message: String
    }

    /// The largest command read, in bytes: a configuration (the documented example is 40 KB) or a few thousand
    /// waypoints fit; a larger message is refused unread.
    static let maximumBytes = 256 * 1024
    /// The longest `id` and action name echoed in an answer, an event and the status: 128 bytes.
    static let maximumEcho = 128

    var id: String?
    var action: Action
    var payload: Payload = .none

    /// Reads `bytes`, a message received on `TOPIC/cmd`, for a board that accepts `accepted`.
    static func read(_ bytes: [UInt8], accepting accepted: Set<Action>) -> Result<FleetCommand, Refusal> {
        guard bytes.count <= maximumBytes else {
            return .failure(Refusal(message: "too large: more than \(maximumBytes) bytes"))
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, limits: JSONLimits(maximumBytes: maximumBytes, maximumDepth: 32))
        } catch {
            return .failure(Refusal(message: "not JSON: \(error)"))
        }
        guard case .object = value else { return .failure(Refusal(message: "not a JSON object")) }
        var id: String?
        switch value["id"] {
        case nil, .null?: break
        case .string(let text)?: id = text
        case .number(let number)?: id = JSONText.number(number)
        default: return .failure(Refusal(message: "id must be a string or a number"))
        }
        if let text = id, text.utf8.count > maximumEcho {
            return .failure(Refusal(message: "id longer than \(maximumEcho) bytes"))
        }
        guard let actionValue = value["action"] else {
            return .failure(Refusal(id: id, message: "no action"))
        }
        guard let name = actionValue.string else {
            return .failure(Refusal(id: id, message: "action must be a string"))
        }
        // Echoed at most maximumEcho bytes long: a hostile name must not fill the spool, the log and the status.
        let shown = name.utf8.count > maximumEcho ? echoed(name) + "…" : name
        func refuse(_ message: String) -> Result<FleetCommand, Refusal> {
            .failure(Refusal(id: id, action: shown, message: message))
        }
        if let type = value["_type"], type.string != "cmd" {
            return refuse("_type must be \"cmd\"")
        }
        guard let action = Action(rawValue: name) else {
            let known = Action.allCases.map(\.rawValue).joined(separator: ", ")
            return refuse("unknown action \(shown.debugDescription); known: \(known)")
        }
        guard accepted.contains(action) else {
            return refuse("\(name) is not accepted by this board ([fleet] accept)")
        }
        var command = FleetCommand(id: id, action: action)
        switch action {
        case .setWaypoints:
            guard let waypoints = value["waypoints"] else {
                return refuse("setWaypoints needs waypoints: a _type waypoints object or a GeoJSON region document")
            }
            switch FleetWaypoints.regionText(of: waypoints) {
            case .success(let text): command.payload = .regions(text)
            case .failure(let problem): return refuse(problem.message)
            }
        case .setConfiguration:
            guard let configuration = value["configuration"] else {
                return refuse("setConfiguration needs configuration: a Waymark TOML document as a string")
            }
            guard let text = configuration.string else {
                return refuse("configuration must be a string holding a Waymark TOML document")
            }
            command.payload = .configuration(text)
        case .reportLocation, .clearWaypoints, .waypoints, .dump:
            break
        }
        return .success(command)
    }

    /// The longest start of `text` of at most ``maximumEcho`` bytes that ends between two characters' scalars: cut
    /// inside one, its bytes would be echoed as a replacement character, past the bound.
    private static func echoed(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= maximumEcho else { break }
            kept.append(scalar)
        }
        return String(kept)
    }
}

/// The answer to one command, on `TOPIC/cmd/result` (docs/fleet.md, "The answer").
struct FleetCommandResult: Sendable, Equatable {
    var device: String
    var id: String?
    /// The action as the command named it; nil when it named none.
    var action: String?
    var ok: Bool
    var message: String
    /// The configuration in effect after the command.
    var configDigest: String
    /// The monitored regions' digest after the command.
    var regionsDigest: String?

    /// `{"_type":"cmdResult","device":…,"id":…,"action":…,"ok":…,"message":…,"config_digest":…}`; `id` and
    /// `action` only when known.
    var payload: [UInt8] {
        var bytes: [UInt8] = []
        JSONObjectWriter.write(into: &bytes) { writer in
            writer.string("_type", "cmdResult")
            writer.string("device", device)
            if let id { writer.string("id", id) }
            if let action { writer.string("action", action) }
            writer.boolean("ok", ok)
            writer.string("message", message)
            writer.string("config_digest", configDigest)
            if let regionsDigest { writer.string("regions_digest", regionsDigest) }
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }
}
