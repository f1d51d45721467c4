import Testing
import WaymarkCore

@Suite struct BeaconRangerTests {
    typealias V = BeaconTestValues

    static let tag = V.beacon(1, 2)

    /// Feeds `rssi` values, one per `every` seconds from `start`; returns the reports as "change proximity@second".
    static func feed(
        _ ranger: inout BeaconRanger,
        _ values: [Int],
        every: Double = 1,
        from start: Double = 0,
        beacon: BeaconID = tag
    ) -> [String] {
        values.enumerated().compactMap { index, rssi in
            let second = start + Double(index) * every
            return ranger.observe(V.sighting(beacon, rssi: rssi), regionID: "dock", now: V.at(second)).map(describe)
        }
    }

    static func describe(_ report: BeaconRanger.Report) -> String {
        "\(report.change) \(report.beacon.proximity)@\(V.seconds(report.beacon.lastHeard))"
    }

    struct PathLoss: Sendable, CustomTestStringConvertible {
        var measuredPower: Int
        var rssi: Double
        var exponent: Double
        var metres: Double
        var testDescription: String { "\(rssi) dBm at \(measuredPower) dBm/1 m, n = \(exponent): \(metres) m" }
    }

    @Test(arguments: [
        PathLoss(measuredPower: -59, rssi: -59, exponent: 2, metres: 1),
        PathLoss(measuredPower: -59, rssi: -65, exponent: 2, metres: 2),  // 10^(6/20) = 1.995
        PathLoss(measuredPower: -59, rssi: -53, exponent: 2, metres: 0.5),  // 10^(-6/20) = 0.501
        PathLoss(measuredPower: -59, rssi: -79, exponent: 2, metres: 10),
        PathLoss(measuredPower: -59, rssi: -62.5, exponent: 2, metres: 1.5),  // 10^(3.5/20) = 1.496
        PathLoss(measuredPower: -59, rssi: -69, exponent: 2.5, metres: 2.51),  // 10^(10/25) = 2.512
        PathLoss(measuredPower: -74, rssi: -114, exponent: 4, metres: 10),
        PathLoss(measuredPower: -59, rssi: -127, exponent: 2, metres: 2511.89),  // 10^(68/20)
        PathLoss(measuredPower: -59, rssi: 20, exponent: 2, metres: 0.01),  // 0.0001 m: the floor
        PathLoss(measuredPower: -59, rssi: -65, exponent: 0, metres: -1),
        PathLoss(measuredPower: -59, rssi: -65, exponent: -2, metres: -1),
    ])
    func pathLoss(_ row: PathLoss) {
        let metres = BeaconRanger.estimatedDistance(
            rssi: row.rssi,
            measuredPower: row.measuredPower,
            pathLossExponent: row.exponent
        )
        #expect(metres == row.metres)
    }

    struct Band: Sendable, CustomTestStringConvertible {
        var metres: Double
        var previous: BeaconProximity
        var expected: BeaconProximity
        var testDescription: String { "\(previous) at \(metres) m: \(expected)" }
    }

    @Test(arguments: [
        Band(metres: 0.49, previous: .unknown, expected: .immediate),
        Band(metres: 0.5, previous: .unknown, expected: .near),
        Band(metres: 2.99, previous: .unknown, expected: .near),
        Band(metres: 3, previous: .unknown, expected: .far),
        Band(metres: 0.625, previous: .immediate, expected: .immediate),
        Band(metres: 0.63, previous: .immediate, expected: .near),
        Band(metres: 5, previous: .immediate, expected: .far),
        Band(metres: 0.4, previous: .near, expected: .near),
        Band(metres: 0.39, previous: .near, expected: .immediate),
        Band(metres: 3.75, previous: .near, expected: .near),
        Band(metres: 3.76, previous: .near, expected: .far),
        Band(metres: 2.4, previous: .far, expected: .far),
        Band(metres: 2.39, previous: .far, expected: .near),
        Band(metres: 0.3, previous: .far, expected: .immediate),
        Band(metres: -1, previous: .near, expected: .unknown),
    ])
    func hysteresisBands(_ band: Band) {
        #expect(BeaconProximity(distanceMeters: band.metres, previous: band.previous) == band.expected)
    }

    @Test("an RSSI oscillating across 3 m keeps its class; only a clear move past 3.75 m or 2.4 m changes it")
    func noFlapping() {
        // No smoothing, so that each sighting is the distance: -68 dBm is 2.82 m, -69 dBm 3.16 m (3 m is -68.5).
        var ranger = BeaconRanger(settings: BeaconSettings(smoothingWindow: .zero), now: V.at(0))
        let oscillating = [-65] + (0..<59).map { $0.isMultiple(of: 2) ? -69 : -68 }
        let first = Self.feed(&ranger, oscillating)
        #expect(
            first == [
                "appeared near@0.0", "update near@10.0", "update near@20.0", "update near@30.0",
                "update near@40.0", "update near@50.0",
            ]
        )
        // 4.47 m: far. Back across 3 m stays far; 2.24 m (below 2.4 m) is near again.
        let second = Self.feed(&ranger, [-72, -69, -68, -69, -68, -66], from: 60)
        #expect(second == ["proximity far@60.0", "proximity near@65.0"])
    }

    @Test("the RSSI is the median of the sightings within the smoothing window; older ones no longer count")
    func medianSmoothing() throws {
        var ranger = BeaconRanger(now: V.at(0))
        // Two outliers among five sightings half a second apart: the median is -61 (the mean would be -74).
        _ = Self.feed(&ranger, [-60, -90, -61, -59, -100], every: 0.5)
        var beacon = try #require(ranger.ranged.first)
        #expect(beacon.rssi == -61 && beacon.accuracy == 1.26 && beacon.proximity == .near)
        // At 7.1 s the five sightings are more than 5 s old: this one alone counts.
        _ = ranger.observe(V.sighting(Self.tag, rssi: -80), regionID: "dock", now: V.at(7.1))
        beacon = try #require(ranger.ranged.first)
        #expect(beacon.rssi == -80 && beacon.accuracy == 11.22 && beacon.proximity == .far)
        // An even count gives the mean of the middle two: -80 and -71 → -75.5 (the RSSI rounded away from zero).
        _ = ranger.observe(V.sighting(Self.tag, rssi: -71), regionID: "dock", now: V.at(8))
        beacon = try #require(ranger.ranged.first)
        let expected = BeaconRanger.estimatedDistance(rssi: -75.5, measuredPower: -59, pathLossExponent: 2)
        #expect(beacon.rssi == -76 && beacon.accuracy == expected && expected == 6.68)
    }

    @Test("appeared, an update per ranging interval, unknown when the window empties, lost after exitAfter")
    func lifecycle() {
        var ranger = BeaconRanger(now: V.at(0))
        #expect(ranger.nextDeadline == nil)
        let heard = Self.feed(&ranger, Array(repeating: -65, count: 41))
        #expect(
            heard == [
                "appeared near@0.0", "update near@10.0", "update near@20.0", "update near@30.0",
                "update near@40.0",
            ]
        )
        #expect(ranger.nextDeadline == V.at(45))
        #expect(ranger.advance(to: V.at(44.999)).isEmpty)
        #expect(ranger.advance(to: V.at(45)).map(Self.describe) == ["proximity unknown@40.0"])
        #expect(ranger.ranged.map(\.rssi) == [0] && ranger.ranged.map(\.accuracy) == [-1])
        #expect(ranger.nextDeadline == V.at(70))
        #expect(ranger.advance(to: V.at(69.999)).isEmpty)
        #expect(ranger.advance(to: V.at(70)).map(Self.describe) == ["lost unknown@40.0"])
        #expect(ranger.ranged.isEmpty && ranger.nextDeadline == nil && ranger.sampleCount(of: Self.tag) == nil)
        #expect(Self.feed(&ranger, [-65], from: 80) == ["appeared near@80.0"])
    }

    @Test("heard again while unknown: a proximity report, and the interval counts from it")
    func heardAgain() {
        var ranger = BeaconRanger(now: V.at(0))
        _ = Self.feed(&ranger, [-65])
        #expect(ranger.advance(to: V.at(20)).map(Self.describe) == ["proximity unknown@0.0"])
        let again = Self.feed(&ranger, Array(repeating: -65, count: 12), from: 21)
        #expect(again == ["proximity near@21.0", "update near@31.0"])
    }

    @Test("time while not scanning neither empties the window nor loses a beacon")
    func scanningPaused() {
        var ranger = BeaconRanger(now: V.at(0))
        _ = Self.feed(&ranger, [-65, -65])
        #expect(ranger.setScanning(false, now: V.at(3)).isEmpty)
        #expect(ranger.nextDeadline == nil)
        #expect(ranger.advance(to: V.at(500)).isEmpty)
        #expect(ranger.ranged.map(\.proximity) == [.near])
        #expect(ranger.setScanning(true, now: V.at(500)).isEmpty)
        // Heard at 1 s, 2 s of scanning counted before the pause: unknown 3 s, lost 28 s of scanning later.
        #expect(ranger.nextDeadline == V.at(503))
        #expect(ranger.advance(to: V.at(503)).map(Self.describe) == ["proximity unknown@1.0"])
        #expect(ranger.advance(to: V.at(528)).map(Self.describe) == ["lost unknown@1.0"])
    }

    @Test("ranged beacons: nearest first, unknown proximity last")
    func rangedOrder() {
        var ranger = BeaconRanger(now: V.at(0))
        let far = V.beacon(1, 1)
        let near = V.beacon(1, 3)
        let gone = V.beacon(1, 2)
        _ = ranger.observe(V.sighting(gone, rssi: -50), regionID: "dock", now: V.at(0))
        _ = ranger.observe(V.sighting(far, rssi: -80), regionID: "dock", now: V.at(6))
        _ = ranger.observe(V.sighting(near, rssi: -62), regionID: "dock", now: V.at(6))
        _ = ranger.advance(to: V.at(6))
        #expect(ranger.ranged.map(\.beacon) == [near, far, gone])
        #expect(ranger.ranged.map(\.proximity) == [.near, .far, .unknown])
    }

    @Test("1,000 sightings a second for a minute: 16 samples at most, and one report per ranging interval")
    func flood() {
        var ranger = BeaconRanger(now: V.at(0))
        var reports: [String] = []
        var largest = 0
        for millisecond in 0..<60_000 {
            let rssi = -65 + millisecond % 5 - 2  // -67 ... -63 dBm: 1.6 m to 2.5 m, near throughout
            let now = V.at(Double(millisecond) / 1000)
            if let report = ranger.observe(V.sighting(Self.tag, rssi: rssi), regionID: "dock", now: now) {
                reports.append(Self.describe(report))
            }
            largest = max(largest, ranger.sampleCount(of: Self.tag) ?? 0)
        }
        #expect(
            reports == [
                "appeared near@0.0", "update near@10.0", "update near@20.0", "update near@30.0",
                "update near@40.0", "update near@50.0",
            ]
        )
        #expect(largest == 16)
        #expect(ranger.ranged.first?.rssi == -65)
    }
}
