import Testing
import WaymarkCore

@testable import WaymarkAgent

/// `waymark fleet status`'s reading of the retained messages and its order: boards that need a look first.
@Suite struct FleetTableTests {
    static func status(_ device: String, online: Bool = true, alarm: String? = nil) -> [UInt8] {
        let alarms = alarm.map { "[{\"code\":\"\($0)\",\"message\":\"m\",\"since\":\"2026-11-29T10:00:00Z\"}]" } ?? "[]"
        return Array(
            """
            {"_type":"status","device":"\(device)","online":\(online),"tst":1795950000,"version":"0.1.0",\
            "uptime":60,"config_digest":"abcdef0123456789","regions":{"count":3,"digest":"99887766554433221100"},\
            "alarms":\(alarms),"sinks":[{"name":"owntracks","unsent":4,"failing":false}],\
            "last_fix":{"time":"2026-11-29T10:00:00.000Z","mode":3,"h_acc":4},"activity":{"state":"moving"}}
            """.utf8
        )
    }

    static let now = Timestamp(iso8601: "2026-11-29T10:00:42Z")!

    /// Boards (topic, payload) and the order of their devices.
    static let orders: [(name: String, boards: [(String, [UInt8])], devices: [String])] = [
        ("all well: by device", [("t/b/status", status("b")), ("t/a/status", status("a"))], ["a", "b"]),
        ("offline first", [("t/a/status", status("a")), ("t/z/status", status("z", online: false))], ["z", "a"]),
        ("an alarm first", [("t/a/status", status("a")), ("t/y/status", status("y", alarm: "disk_low"))], ["y", "a"]),
        (
            "garbage first, named after its topic",
            [("t/a/status", status("a")), ("o/u/junk/status", Array("{".utf8))], ["junk", "a"]
        ),
        (
            "the needing ones by device among themselves",
            [
                ("t/c/status", status("c", online: false)), ("t/a/status", status("a")),
                ("t/b/status", status("b", alarm: "sink_stalled")),
            ], ["b", "c", "a"]
        ),
    ]

    @Test(arguments: orders.indices)
    func boardsThatNeedALookComeFirst(_ index: Int) {
        let example = Self.orders[index]
        let boards = example.boards.map { FleetBoard(topic: $0.0, payload: $0.1) }
        #expect(FleetBoard.ordered(boards).map(\.device) == example.devices, "\(example.name)")
    }

    @Test(arguments: [
        ("not json", Array("garbage{".utf8), "unreadable: not JSON (8 bytes)"),
        ("another type", Array("{\"_type\":\"location\",\"lat\":1}".utf8), "unreadable: not a _type status message"),
        ("no online", Array("{\"_type\":\"status\"}".utf8), "unreadable: no online member"),
        ("wrong types", Array("{\"_type\":\"status\",\"online\":\"yes\"}".utf8), "unreadable: no online member"),
        ("empty", [], "unreadable: not JSON (0 bytes)"),
        ("binary", [0xff, 0xfe, 0x00], "unreadable: not JSON (3 bytes)"),
    ])
    func garbageIsABoardThatSaysSo(name: String, payload: [UInt8], problem: String) {
        let board = FleetBoard(topic: "owntracks/u/bus-9/status", payload: payload)
        #expect(board.problem == problem, "\(name)")
        #expect(board.device == "bus-9")
        #expect(board.needsAttention)
        #expect(FleetTable.lines([board], now: Self.now) == ["bus-9  \(problem) (on owntracks/u/bus-9/status)"])
    }

    @Test func aLineSaysWhatAnOperatorLooksAt() {
        let board = FleetBoard(topic: "t/bus-1/status", payload: Self.status("bus-1", alarm: "region_file_rejected"))
        #expect(
            FleetTable.lines([board], now: Self.now) == [
                "bus-1  online   fix 42 s ago  alarm region_file_rejected  unsent owntracks 4  v0.1.0  "
                    + "config abcdef012345  regions 3 998877665544"
            ]
        )
    }

    @Test func theLastWillIsAnOfflineBoardWithItsVersionAndDigest() {
        let will = FleetStatus.lastWill(device: "bus-2", version: "0.1.0", configDigest: "abc")
        let board = FleetBoard(topic: "t/bus-2/status", payload: will)
        #expect(board.problem == nil)
        #expect(!board.online)
        #expect(board.offlineReason == "connection lost")
        #expect(board.version == "0.1.0")
        #expect(board.configDigest == "abc")
    }

    @Test func aPublishedStatusReadsBack() {
        var status = FleetStatus(
            device: "bus-3",
            version: "0.1.0",
            configDigest: "cd",
            regionCount: 7,
            regionsDigest: "rd"
        )
        status.alarms = [.init(code: "disk_low", id: nil, message: "low", since: Timestamp(seconds: 100))]
        status.backlogs = [.init(name: "file", unsent: 2, failing: true)]
        status.lastFix = .init(time: Timestamp(seconds: 1_795_950_000), horizontalAccuracy: 3.5)
        let board = FleetBoard(
            topic: "t/x/status",
            payload: status.message(online: true, uptime: .seconds(61), wallClock: Timestamp(seconds: 1_795_950_010))
        )
        #expect(board.problem == nil)
        #expect(board.device == "bus-3" && board.online && board.uptime == 61)
        #expect(board.configDigest == "cd" && board.regionsDigest == "rd" && board.regionCount == 7)
        #expect(board.alarms.map(\.code) == ["disk_low"])
        #expect(board.backlogs == [.init(name: "file", unsent: 2, failing: true)])
        #expect(board.lastFix == Timestamp(seconds: 1_795_950_000))
    }
}
