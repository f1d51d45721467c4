import Testing
import WaymarkCore

@testable import WaymarkAgent

/// Commands on `TOPIC/cmd`: read strictly, refused with a reason, never a crash; waypoints mapped to regions.
@Suite struct FleetCommandTests {
    static let all = Set(FleetCommand.Action.allCases)

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "not a JSON object"),
        (#"{"_type":"cmd"}"#, "no action"),
        (#"{"_type":"cmd","action":7}"#, "action must be a string"),
        (#"{"_type":"cmd","action":"reboot"}"#, "unknown action \"reboot\""),
        (#"{"_type":"location","action":"dump"}"#, "_type must be \"cmd\""),
        (#"{"_type":"cmd","action":"dump","id":[1]}"#, "id must be a string or a number"),
        (#"{"_type":"cmd","action":"setConfiguration"}"#, "setConfiguration needs configuration"),
        (#"{"_type":"cmd","action":"setConfiguration","configuration":{"a":1}}"#, "configuration must be a string"),
        (#"{"_type":"cmd","action":"setWaypoints","waypoints":3}"#, "waypoints must be an object or an array"),
        (#"{"_type":"cmd","action":"setWaypoints","waypoints":[{"lat":"1"}]}"#, "waypoints[0]: lat must be a number"),
        (#"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"a","lat":1,"lon":2}]}"#, "needs rad"),
        (#"{"_type":"cmd","action":"setWaypoints","waypoints":[{"lat":1,"lon":2,"rad":5}]}"#, "no rid, tst or desc"),
    ])
    func garbageIsRefusedWithItsReason(text: String, reason: String) {
        guard case .failure(let refusal) = FleetCommand.read(Array(text.utf8), accepting: Self.all) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(refusal.message.contains(reason), "\(refusal.message)")
    }

    @Test func aMegabyteIsRefusedUnread() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
        guard case .failure(let refusal) = FleetCommand.read(bytes, accepting: Self.all) else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.message == "too large: more than 262144 bytes")
    }

    @Test("a long id or action name is never echoed whole: the answer, the event and the status stay small")
    func longNamesAreNotEchoed() {
        let longID = String(repeating: "i", count: 200)
        let byID = FleetCommand.read(Array(#"{"action":"dump","id":"\#(longID)"}"#.utf8), accepting: Self.all)
        #expect(byID == .failure(FleetCommand.Refusal(message: "id longer than 128 bytes")))
        let longName = String(repeating: "a", count: 100_000)
        guard
            case .failure(let refusal) = FleetCommand.read(
                Array(#"{"action":"\#(longName)"}"#.utf8),
                accepting: Self.all
            )
        else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.action == String(repeating: "a", count: 128) + "…")
        #expect(refusal.message.utf8.count < 400, "\(refusal.message.utf8.count) bytes")
    }

    /// Found by `scripts/fuzz.sh fleet-cmd`: a name cut at 128 bytes inside a character was echoed with a
    /// replacement character, 133 bytes with the ellipsis.
    @Test("a long action name is cut between characters, within the bound")
    func longNamesAreCutBetweenCharacters() {
        let name = String(repeating: "b", count: 127) + "ݣntion"
        guard case .failure(let refusal) = FleetCommand.read(Array(#"{"action":"\#(name)"}"#.utf8), accepting: Self.all)
        else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.action == String(repeating: "b", count: 127) + "…")
        #expect((refusal.action?.utf8.count ?? 0) <= FleetCommand.maximumEcho + "…".utf8.count)
    }

    @Test func anActionNotAcceptedIsRefusedWithItsIDAndName() {
        let text = #"{"_type":"cmd","action":"dump","id":"q-1"}"#
        let result = FleetCommand.read(Array(text.utf8), accepting: [.reportLocation])
        #expect(
            result
                == .failure(
                    FleetCommand.Refusal(
                        id: "q-1",
                        action: "dump",
                        message: "dump is not accepted by this board ([fleet] accept)"
                    )
                )
        )
        // Off by default: an empty list accepts nothing.
        #expect((try? Configuration.parse("", fileName: "w.toml").fleet.acceptedActions) == [])
    }

    @Test(arguments: [
        (#"{"_type":"cmd","action":"dump","id":7}"#, FleetCommand(id: "7", action: .dump)),
        (#"{"action":"reportLocation"}"#, FleetCommand(action: .reportLocation)),
        (#"{"_type":"cmd","action":"clearWaypoints","id":"x"}"#, FleetCommand(id: "x", action: .clearWaypoints)),
        (
            #"{"_type":"cmd","action":"setConfiguration","configuration":"[location]\ndistance_filter = 5\n"}"#,
            FleetCommand(action: .setConfiguration, payload: .configuration("[location]\ndistance_filter = 5\n"))
        ),
    ])
    func commandsAreRead(text: String, command: FleetCommand) {
        #expect(FleetCommand.read(Array(text.utf8), accepting: Self.all) == .success(command))
    }

    /// OwnTracks waypoints become the features `waymark regions import` reads; GeoJSON passes as it is.
    @Test func waypointsBecomeRegions() throws {
        let text = """
            {"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[
             {"_type":"waypoint","desc":"Depot","lat":52.5,"lon":13.25,"rad":150,"tst":1700000000,"rid":"depot"},
             {"_type":"waypoint","desc":"Yard","lat":-33.86,"lon":151.2,"rad":80,"tst":1700000001},
             {"_type":"waypoint","desc":"Dock 4","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":4}]}}
            """
        guard case .success(let command) = FleetCommand.read(Array(text.utf8), accepting: Self.all),
            case .regions(let geojson) = command.payload
        else {
            Issue.record("refused")
            return
        }
        let input = RegionInput(parsing: geojson, name: "cmd")
        #expect(input.textProblems == [])
        let entries = input.features.compactMap(\.entry)
        #expect(entries.map(\.id) == ["depot", "1700000001", "Dock 4"])
        #expect(entries.map(\.name) == ["Depot", "Yard", "Dock 4"])
        guard case .geographic(let depot) = entries[0], case .beacon(let dock) = entries[2] else {
            Issue.record("kinds")
            return
        }
        #expect(depot.shape == .circle(center: Coordinate(latitude: 52.5, longitude: 13.25), radius: 150))
        #expect(dock.constraint.major == 1 && dock.constraint.minor == 4)
        // Back as OwnTracks publishes them.
        let message = String(decoding: FleetWaypoints.message(device: "bus-1", entries: [entries[0]]), as: UTF8.self)
        #expect(
            message
                == #"{"_type":"waypoints","device":"bus-1","waypoints":[{"_type":"waypoint","rid":"depot","desc":"Depot","lat":52.5,"lon":13.25,"rad":150}]}"#
        )
        let geo = #"{"action":"setWaypoints","waypoints":{"type":"FeatureCollection","features":[]}}"#
        guard case .success(let passed) = FleetCommand.read(Array(geo.utf8), accepting: Self.all) else {
            Issue.record("GeoJSON refused")
            return
        }
        #expect(passed.payload == .regions(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)))
    }

    @Test func theResultIsOneJSONObject() {
        let result = FleetCommandResult(
            device: "bus-1",
            id: "q",
            action: "dump",
            ok: false,
            message: "no",
            configDigest: "ab"
        )
        #expect(
            String(decoding: result.payload, as: UTF8.self)
                == #"{"_type":"cmdResult","device":"bus-1","id":"q","action":"dump","ok":false,"message":"no","config_digest":"ab"}"#
        )
    }

    @Test func acceptListsKnownActions() throws {
        let fleet = try Configuration.parse("[fleet]\naccept = [\"dump\", \"setWaypoints\"]\n", fileName: "w.toml")
            .fleet
        #expect(fleet.acceptedActions == [.dump, .setWaypoints])
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse("[fleet]\naccept = [\"reboot\"]\n", fileName: "w.toml")
        }
    }

    @Test(arguments: [
        ("bus-*", "bus-007", true), ("bus-*", "car-1", false), ("bus-0[0-4]?", "bus-042", true),
        ("bus-0[0-4]?", "bus-052", false), ("*", "anything", true),
    ])
    func globsMatchDevices(glob: String, device: String, matches: Bool) {
        #expect(FleetSend.matches(device, glob: glob) == matches)
    }

    @Test func sendMakesTheCommandTheBoardReads() throws {
        let waypoints = Array(#"{"_type":"waypoints","waypoints":[{"desc":"A","lat":1,"lon":2,"rad":50}]}"#.utf8)
        let made = try FleetSend.message(action: "setWaypoints", id: "s-1", file: ("w.json", waypoints)).get()
        guard case .success(let command) = FleetCommand.read(made, accepting: Self.all) else {
            Issue.record("the board refuses what fleet send makes")
            return
        }
        #expect(command.id == "s-1" && command.action == .setWaypoints)
        let toml = Array("[location]\ndistance_filter = 25\n".utf8)
        let configuration = try FleetSend.message(action: "setConfiguration", id: "s-2", file: ("c.toml", toml)).get()
        #expect(
            FleetCommand.read(configuration, accepting: Self.all)
                == .success(
                    FleetCommand(
                        id: "s-2",
                        action: .setConfiguration,
                        payload: .configuration("[location]\ndistance_filter = 25\n")
                    )
                )
        )
        // What no board would run is refused before it is sent.
        for (action, file) in [("reboot", nil), ("setWaypoints", nil), ("dump", ("x", [UInt8]("{}".utf8)))] {
            #expect(throws: Agent.FleetError.self) { try FleetSend.message(action: action, id: "x", file: file).get() }
        }
        #expect(throws: Agent.FleetError.self) {
            try FleetSend.message(action: "setWaypoints", id: "x", file: ("bad.json", Array("{".utf8))).get()
        }
    }

    @Test func answersAreOkRefusedOrSilent() {
        let ok = Array(#"{"_type":"cmdResult","id":"a","ok":true,"message":"done"}"#.utf8)
        let refused = Array(#"{"_type":"cmdResult","id":"b","ok":false,"message":"no"}"#.utf8)
        let answers = [
            FleetSend.answer(device: "bus-1", id: "a", result: ok, online: true, timeout: .seconds(10)),
            FleetSend.answer(device: "bus-22", id: "b", result: refused, online: true, timeout: .seconds(10)),
            FleetSend.answer(device: "bus-3", id: "c", result: nil, online: false, timeout: .seconds(10)),
        ]
        #expect(
            FleetSend.lines(answers) == [
                "bus-1   ok         done",
                "bus-22  refused    no",
                "bus-3   no answer  no answer within 10s (offline): the command is queued for when it connects",
            ]
        )
        #expect(
            FleetSend.json(Array(answers.prefix(1)))
                == #"[{"device":"bus-1","ok":true,"answered":true,"message":"done"}]"#
        )
    }
}
