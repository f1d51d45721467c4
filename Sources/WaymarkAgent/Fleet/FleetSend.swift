import Glibc
import WaymarkFormats

/// `waymark fleet send`'s pure parts (docs/fleet.md, "On the workstation: waymark fleet send"): the command's
/// message, the boards a glob matches, and the answers read from `TOPIC/cmd/result`, one per board.
public enum FleetSend {
    /// One board's answer, or its silence.
    public struct Answer: Sendable, Equatable {
        public var device: String
        /// Whether the board answered `ok: true`.
        public var ok: Bool
        /// Whether it answered at all within the timeout.
        public var answered: Bool
        /// The board's message, or what became of the command.
        public var message: String
    }

    /// The message `{"_type":"cmd","action":…,"id":…}` for `action`, with `file`'s contents: for `setWaypoints`
    /// an OwnTracks waypoints document or a GeoJSON region document (told apart by the board, by content), for
    /// `setConfiguration` a TOML document. Nil and a reason when it cannot be sent.
    public static func message(
        action: String,
        id: String,
        file: (name: String, bytes: [UInt8])?
    ) -> Result<[UInt8], Agent.FleetError> {
        func failure(_ text: String) -> Result<[UInt8], Agent.FleetError> {
            .failure(Agent.FleetError(description: text))
        }
        guard let known = FleetCommand.Action(rawValue: action) else {
            let names = FleetCommand.Action.allCases.map(\.rawValue).joined(separator: ", ")
            return failure("unknown action \(action.debugDescription); one of \(names)")
        }
        var text = Array(#"{"_type":"cmd","action":"#.utf8)
        JSONText.appendQuoted(action, to: &text)
        text += #","id":"#.utf8
        JSONText.appendQuoted(id, to: &text)
        switch known {
        case .setWaypoints:
            guard let file else { return failure("setWaypoints needs a FILE: OwnTracks waypoints or GeoJSON regions") }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: file.bytes, limits: JSONLimits(maximumBytes: FleetCommand.maximumBytes))
            } catch {
                return failure("\(file.name): not JSON: \(error)")
            }
            if case .failure(let problem) = FleetWaypoints.regionText(of: value) {
                return failure("\(file.name): \(problem.message)")
            }
            text += #","waypoints":"#.utf8
            value.append(to: &text)
        case .setConfiguration:
            guard let file else { return failure("setConfiguration needs a FILE: a Waymark TOML document") }
            text += #","configuration":"#.utf8
            JSONText.appendQuoted(String(decoding: file.bytes, as: UTF8.self), to: &text)
        case .reportLocation, .clearWaypoints, .waypoints, .dump:
            if file != nil { return failure("\(action) takes no FILE") }
        }
        text.append(UInt8(ascii: "}"))
        guard text.count <= FleetCommand.maximumBytes else {
            return failure("the command is \(text.count) bytes; boards read at most \(FleetCommand.maximumBytes)")
        }
        return .success(text)
    }

    /// Whether `device` matches the shell glob `glob` (`bus-*`, `bus-0[0-4]?`).
    public static func matches(_ device: String, glob: String) -> Bool {
        fnmatch(glob, device, 0) == 0
    }

    /// The answer of a board from its `_type: cmdResult` for command `id`, or its silence; `online` says how the
    /// board's status last saw it.
    static func answer(device: String, id: String, result: [UInt8]?, online: Bool, timeout: Duration) -> Answer {
        guard let result else {
            let state = online ? "online" : "offline"
            return Answer(
                device: device,
                ok: false,
                answered: false,
                message: "no answer within \(timeout.configText) (\(state)): the command is queued for when it "
                    + "connects"
            )
        }
        guard let value = try? JSONValue(parsing: result), value["_type"]?.string == "cmdResult",
            value["id"]?.string == id, let ok = value["ok"]?.boolean
        else {
            return Answer(device: device, ok: false, answered: true, message: "unreadable answer")
        }
        return Answer(device: device, ok: ok, answered: true, message: value["message"]?.string ?? "")
    }

    /// One line per board: `bus-001  ok  3 remote regions set`, `refused`, `no answer`.
    public static func lines(_ answers: [Answer]) -> [String] {
        let width = answers.map(\.device.count).max() ?? 0
        return answers.map { answer in
            let padded = answer.device + String(repeating: " ", count: width - answer.device.count)
            let verdict = answer.ok ? "ok       " : answer.answered ? "refused  " : "no answer"
            return "\(padded)  \(verdict)  \(answer.message)"
        }
    }

    /// A JSON array of `{"device","ok","answered","message"}`.
    public static func json(_ answers: [Answer]) -> String {
        FleetTable.jsonArray(answers) { writer, answer in
            writer.string("device", answer.device)
            writer.boolean("ok", answer.ok)
            writer.boolean("answered", answer.answered)
            writer.string("message", answer.message)
        }
    }
}
