import Testing
import WaymarkCore

@Suite struct RegionTrackerTests {
    static let start = Timestamp(seconds: 1_700_000_000)

    /// Runs fixes one per second at the given signed distances; returns the confirmed changes as
    /// (state, second of the crossing, second confirmed).
    static func changes(
        _ distances: [Double],
        cushion: Double,
        dwell: Double,
        from initial: RegionState = .unknown
    ) -> [String] {
        var tracker = RegionTracker(state: initial)
        var result: [String] = []
        for (second, distance) in distances.enumerated() {
            let time = start.advanced(by: .seconds(second))
            guard
                let change = tracker.observe(
                    signedDistance: distance,
                    at: Coordinate(latitude: 49, longitude: 12),
                    time: time,
                    cushion: cushion,
                    dwell: .seconds(dwell)
                )
            else { continue }
            let crossing = Int(change.since.duration(since: start).secondsValue)
            result.append("\(change.state.rawValue)@\(crossing)/\(second)")
        }
        return result
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var distances: [Double]
        var cushion: Double
        var dwell: Double
        var initial: RegionState = .unknown
        var changes: [String]
    }

    static let rows: [Row] = [
        Row(
            testDescription: "no cushion, no dwell: every crossing, the boundary counts as inside",
            distances: [5, 0, 3, -2, 1],
            cushion: 0,
            dwell: 0,
            changes: ["outside@0/0", "inside@1/1", "outside@2/2", "inside@3/3", "outside@4/4"]
        ),
        Row(
            testDescription: "the first fix determines the state at once, even inside the cushion",
            distances: [-5, -30],
            cushion: 20,
            dwell: 20,
            changes: ["inside@0/0"]
        ),
        Row(
            testDescription: "jitter across the boundary within the cushion changes nothing",
            distances: [-25, 10, -10, 19, 20, -19],
            cushion: 20,
            dwell: 0,
            changes: ["inside@0/0"]
        ),
        Row(
            testDescription:
                "outside by more than the cushion: a change, confirmed after the dwell, dated at the crossing",
            distances: [-25, 21, 30, 40, 50],
            cushion: 20,
            dwell: 3,
            changes: ["inside@0/0", "outside@1/4"]
        ),
        Row(
            testDescription: "a change that does not hold for the dwell is dropped",
            distances: [-25, 30, 30, -25, 30, 30, 30],
            cushion: 20,
            dwell: 3,
            changes: ["inside@0/0"]
        ),
        Row(
            testDescription: "fixes inside the cushion neither confirm nor cancel a pending change",
            distances: [-25, 30, 5, 5, 30],
            cushion: 20,
            dwell: 3,
            changes: ["inside@0/0", "outside@1/4"]
        ),
        Row(
            testDescription: "a saved state is not reported again",
            distances: [-30, -30, 40],
            cushion: 20,
            dwell: 0,
            initial: .inside,
            changes: ["outside@2/2"]
        ),
    ]

    @Test(arguments: rows)
    func confirmedChanges(_ row: Row) {
        #expect(
            Self.changes(row.distances, cushion: row.cushion, dwell: row.dwell, from: row.initial) == row.changes
        )
    }
}
