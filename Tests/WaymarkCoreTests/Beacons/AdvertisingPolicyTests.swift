import Testing
import WaymarkCore

/// When the board advertises itself: each rule against a drive (moving, paused, regions entered and left) at
/// explicit instants, with the changes and their reasons.
@Suite struct AdvertisingPolicyTests {
    typealias V = BeaconTestValues

    /// One moment of a drive: the vehicle paused (and why) or not, the regions it is inside.
    struct Step: Sendable {
        var second: Double
        var pause: PauseReport.Reason?
        var inside: [String] = []
    }

    /// A drive: moving out of the depot, through the gate region, paused at a customer, back to the depot, parked,
    /// and the agent stopping.
    static let drive: [Step] = [
        Step(second: 0, pause: .stationary, inside: ["depot"]),
        Step(second: 10, pause: nil, inside: ["depot"]),
        Step(second: 20, pause: nil, inside: ["depot", "gate"]),
        Step(second: 30, pause: nil),
        Step(second: 40, pause: .stationary, inside: ["customer"]),
        Step(second: 50, pause: nil),
        Step(second: 60, pause: nil, inside: ["gate", "depot"]),
        Step(second: 70, pause: .stationary, inside: ["depot"]),
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        var rule: AdvertisingPolicy.Rule
        /// Each change as "SECOND on|off REASON[ REGION]", the agent's stop at 80 s last.
        var changes: [String]
        var testDescription: String { "\(rule)" }
    }

    static let rows: [Row] = [
        Row(rule: .always, changes: ["0 on always", "80 off stopping"]),
        Row(rule: .whileMoving, changes: ["10 on moving", "40 off paused", "50 on moving", "70 off paused"]),
        Row(
            rule: .whilePaused,
            changes: [
                "0 on paused", "10 off moving", "40 on paused", "50 off moving", "70 on paused", "80 off stopping",
            ]
        ),
        Row(
            rule: .insideRegions(["depot"]),
            changes: [
                "0 on inside_region depot", "30 off outside_regions", "60 on inside_region depot", "80 off stopping",
            ]
        ),
        // Two regions: the change comes only on leaving the last; the reason names the first by id.
        Row(
            rule: .insideRegions(["gate", "depot"]),
            changes: [
                "0 on inside_region depot", "30 off outside_regions", "60 on inside_region depot", "80 off stopping",
            ]
        ),
        Row(rule: .insideRegions(["customer"]), changes: ["40 on inside_region customer", "50 off outside_regions"]),
        Row(rule: .insideRegions(["nowhere"]), changes: []),
    ]

    @Test(arguments: rows) func changesAlongADrive(_ row: Row) {
        var policy = AdvertisingPolicy(rule: row.rule)
        var changes: [String] = []
        func note(_ change: AdvertisingPolicy.Change?, at second: Double) {
            guard let change else { return }
            let text = "\(Int(second)) \(change.advertising ? "on" : "off") \(change.reason.rawValue)"
            changes.append(text + (change.regionID.map { " \($0)" } ?? ""))
            #expect(policy.wantsAdvertising == change.advertising)
            #expect(policy.since == V.at(second))
        }
        for step in Self.drive {
            note(policy.update(pause: step.pause, inside: step.inside, now: V.at(step.second)), at: step.second)
        }
        note(policy.stop(now: V.at(80)), at: 80)
        // Once stopped, nothing starts it again.
        #expect(policy.update(pause: nil, inside: ["depot"], now: V.at(90)) == nil)
        #expect(policy.stop(now: V.at(95)) == nil)
        #expect(changes == row.changes)
    }

    /// Review of issue 41, finding 9: under `moving`, a `no_fix` pause (an underground depot) keeps advertising;
    /// only standing still stops it. `paused` takes either pause as parked.
    @Test(arguments: [
        (AdvertisingPolicy.Rule.whileMoving, ["0 on moving", "30 off paused", "40 on moving"]),
        (.whilePaused, ["10 on paused", "20 off moving", "30 on paused", "40 off moving"]),
    ])
    func aPauseForWantOfAFix(_ rule: AdvertisingPolicy.Rule, _ expected: [String]) {
        var policy = AdvertisingPolicy(rule: rule)
        var changes: [String] = []
        let pauses: [(Double, PauseReport.Reason?)] = [(0, nil), (10, .noFix), (20, nil), (30, .stationary), (40, nil)]
        for (second, pause) in pauses {
            guard let change = policy.update(pause: pause, inside: [], now: V.at(second)) else { continue }
            changes.append("\(Int(second)) \(change.advertising ? "on" : "off") \(change.reason.rawValue)")
        }
        #expect(changes == expected)
    }

    @Test func theSameStateTwiceIsNoChange() {
        var policy = AdvertisingPolicy(rule: .whileMoving)
        #expect(policy.update(pause: nil, inside: [], now: V.at(0)) == .init(advertising: true, reason: .moving))
        #expect(policy.update(pause: nil, inside: ["depot"], now: V.at(1)) == nil)
        #expect(policy.since == V.at(0))
    }

    /// The frame the board sends is exactly iBeacon's, and Waymark's own parser reads it back.
    @Test(arguments: [-100, -59, -1]) func theFrameRoundTrips(measuredPower: Int) throws {
        let beacon = V.beacon(0x1234, 0xFEDC)
        let frame = IBeaconFrame.encode(beacon, measuredPower: measuredPower)
        let power = UInt8(bitPattern: Int8(measuredPower))
        #expect(
            frame
                == V.bytes("02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 12 34 FE DC")
                + [power]
        )
        #expect(
            try IBeaconFrame.parse(frame, rssi: -70).get()
                == V.sighting(beacon, rssi: -70, measuredPower: measuredPower)
        )
    }
}
