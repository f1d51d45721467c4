import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Issue 3's acceptance: the location filter on real captures through a real gpsd and `waymark run`.
@Suite("Location delivery through a real gpsd")
struct LocationDeliveryTests {
    static let drive = "20100411_Geko_Regensburg.log"

    /// One delivered location, read back from the agent's output.
    struct Delivery {
        var time: Timestamp
        var location: Location
    }

    /// Runs `waymark run --print` with `[location]` set to `settings` against a real gpsd replaying `log`;
    /// returns the locations and the log lines.
    static func deliveries(_ log: String, _ settings: String) throws -> (deliveries: [Delivery], stderr: String) {
        let (events, stderr) = try LiveRun.events(log, "[location]\n\(settings)")
        let deliveries = try events.compactMap { object -> Delivery? in
            guard object["type"] as? String == "location" else { return nil }
            let text = try #require(object["time"] as? String)
            let time = try #require(Timestamp(iso8601: text))
            let location = Location(
                time: time,
                latitude: try #require(object["lat"] as? Double),
                longitude: try #require(object["lon"] as? Double),
                horizontalAccuracy: object["h_acc"] as? Double,
                speed: object["speed"] as? Double,
                course: object["course"] as? Double
            )
            return Delivery(time: time, location: location)
        }
        return (deliveries, stderr)
    }

    /// The drive's epochs with a fix, from gpsd's own output (the `.chk` file), as locations.
    static func epochs(_ log: String) throws -> [Location] {
        try CaptureOracle(chkPath: Fixtures.gpsdLog(log + ".chk")).epochs.map { epoch in
            Location(
                time: try #require(Timestamp(iso8601: epoch.time)),
                latitude: epoch.latitude,
                longitude: epoch.longitude,
                horizontalAccuracy: epoch.horizontalAccuracy,
                speed: epoch.speed,
                course: epoch.course
            )
        }
    }

    @Test("distance_filter = 100: deliveries at least 100 m apart, and never 150 m without one")
    func distanceFilter() throws {
        let (deliveries, stderr) = try Self.deliveries(Self.drive, "distance_filter = 100")
        try #require(deliveries.count > 20, "the drive covers kilometres")
        // gpsd reports the 2010 drive in 2029, years from this machine's clock: no fix is stale for that.
        #expect(stderr.contains("filtered_distance=") && !stderr.contains("stale="), "\(stderr.suffix(300))")
        for (previous, next) in zip(deliveries, deliveries.dropFirst()) {
            let distance = previous.location.distance(to: next.location)
            #expect(distance >= 100, "\(previous.time) → \(next.time): \(distance) m")
        }
        // Every fix of the drive lies less than 150 m from the last delivery before it, or is delivered.
        var index = 0
        var checked = 0
        for epoch in try Self.epochs(Self.drive) {
            while index + 1 < deliveries.count, deliveries[index + 1].time <= epoch.time { index += 1 }
            guard deliveries[index].time < epoch.time else { continue }
            checked += 1
            let distance = deliveries[index].location.distance(to: epoch)
            #expect(distance < 150, "\(epoch.time) is \(distance) m from the delivery at \(deliveries[index].time)")
        }
        #expect(checked > 600, "most of the drive is checked")
    }

    @Test("significant change: deliveries 500 m and 5 min apart, as many as computed here")
    func significantChange() throws {
        let (deliveries, _) = try Self.deliveries(Self.drive, "mode = \"significant_change\"")
        for (previous, next) in zip(deliveries, deliveries.dropFirst()) {
            #expect(previous.location.distance(to: next.location) >= 500)
            #expect(next.time.duration(since: previous.time) >= .seconds(300))
        }
        // Independently: walk the drive's epochs and deliver when both thresholds are reached.
        var expected: [Timestamp] = []
        var last: Location?
        for epoch in try Self.epochs(Self.drive) {
            guard let previous = last else {
                last = epoch
                expected.append(epoch.time)
                continue
            }
            let distance = previous.distance(to: epoch)
            // A move inside the fix's own accuracy (at most three times the threshold) is not counted.
            if epoch.time.duration(since: previous.time) >= .seconds(300), distance >= 500,
                distance > min(epoch.horizontalAccuracy ?? 0, 1500)
            {
                last = epoch
                expected.append(epoch.time)
            }
        }
        #expect(expected.count >= 4, "a 26-minute drive")
        #expect(deliveries.map(\.time) == expected)
    }

    @Test("angle_filter = 30 delivers at the turns found from the receiver's course")
    func angleFilter() throws {
        let (deliveries, _) = try Self.deliveries(Self.drive, "angle_filter = 30")
        let deliveredTimes = Set(deliveries.map(\.time))
        // A turn: while moving (receiver-measured speed of 2 m/s or more), the course 10 s later differs
        // by 60° or more. Each turn must contain a delivery between its start and its end.
        let moving = try Self.epochs(Self.drive).filter { ($0.speed ?? 0) >= 2 && $0.course != nil }
        var turns: [(start: Timestamp, end: Timestamp)] = []
        for (index, epoch) in moving.enumerated() {
            guard
                let later = moving[index...].first(where: {
                    $0.time.duration(since: epoch.time) >= .seconds(10)
                }),
                later.time.duration(since: epoch.time) <= .seconds(14),
                LocationFilter.angle(between: epoch.course ?? 0, and: later.course ?? 0) >= 60
            else { continue }
            if let last = turns.last, last.end >= epoch.time {
                turns[turns.count - 1].end = later.time
            } else {
                turns.append((epoch.time, later.time))
            }
        }
        try #require(turns.count >= 10, "the drive through Regensburg has many turns")
        for turn in turns {
            let inside = deliveredTimes.contains { $0 >= turn.start && $0 <= turn.end }
            #expect(inside, "no delivery in the turn \(turn.start) … \(turn.end)")
        }
        // And no delivery on a straight road: each one turned 30° from the one before.
        for (previous, next) in zip(deliveries.dropFirst(), deliveries.dropFirst(2)) {
            guard let from = previous.location.course, let to = next.location.course else { continue }
            #expect(LocationFilter.angle(between: from, and: to) >= 30, "\(next.time)")
        }
    }

    @Test(
        "stationary receivers: jitter and gpsd's computed speeds deliver nothing beyond the heartbeat",
        arguments: [("motorola-t805.log", nil), ("haicom-305N.log", "2026-11-22T09:53:35.000Z")]
    )
    func stationary(log: String, stationaryUntil: String?) throws {
        let (deliveries, stderr) = try Self.deliveries(
            log,
            "distance_filter = 20\nheartbeat = \"10s\"\nspeed_delta = 3\nangle_filter = 30"
        )
        let epochs = try Self.epochs(log)
        let end = try stationaryUntil.map { try #require(Timestamp(iso8601: $0)) } ?? #require(epochs.last).time
        let standing = deliveries.filter { $0.time <= end }
        let first = try #require(standing.first)
        for (previous, next) in zip(standing, standing.dropFirst()) {
            #expect(next.time.duration(since: previous.time) >= .seconds(10), "\(log): \(next.time) is not a heartbeat")
        }
        // The heartbeat itself fires: one delivery per 10 s of fixes (the receiver sends about one a second).
        let span = end.duration(since: first.time)
        let heartbeats = Int((span / .seconds(10)).rounded(.down))
        #expect((heartbeats...heartbeats + 1).contains(standing.count), "\(log): \(standing.count) in \(span)")
        #expect(stderr.contains("filtered_distance"), "the jitter was seen and held back")
    }
}
