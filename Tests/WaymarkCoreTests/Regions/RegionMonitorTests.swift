import Testing
import WaymarkCore

/// A lookup without an index, for circles only: every region is a candidate.
struct CircleLookup: RegionLookup {
    var regions: [Region]

    var slotCount: Int { regions.count }

    func slot(of id: String) -> Int32? { regions.firstIndex { $0.id == id }.map { Int32($0) } }

    func regionFlags(at slot: Int32) -> RegionFlags? {
        guard regions.indices.contains(Int(slot)) else { return nil }
        let region = regions[Int(slot)]
        return RegionFlags(id: region.id, notifyOnEntry: region.notifyOnEntry, notifyOnExit: region.notifyOnExit)
    }

    func candidates(near coordinate: Coordinate, within margin: Double, into slots: inout [Int32]) {
        slots.append(contentsOf: regions.indices.map { Int32($0) })
    }

    func signedDistance(ofRegionAt slot: Int32, to coordinate: Coordinate) -> Double {
        guard case .circle(let center, let radius) = regions[Int(slot)].shape else { return .infinity }
        return Geodesic.distance(from: center, to: coordinate) - radius
    }
}

@Suite struct RegionMonitorTests {
    static let start = Timestamp(seconds: 1_700_000_000)
    static let depot = Coordinate(latitude: 49, longitude: 12)
    static let metresPerDegree = 111_200.0

    static func circle(_ id: String, north: Double = 0, radius: Double = 100, notifyOnExit: Bool = true) -> Region {
        Region(
            id: id,
            notifyOnExit: notifyOnExit,
            shape: .circle(
                center: Coordinate(latitude: depot.latitude + north / metresPerDegree, longitude: depot.longitude),
                radius: radius
            )
        )
    }

    /// A fix `north` metres north of the depot, at `second`.
    static func fix(_ second: Double, north: Double, accuracy: Double? = 5) -> Location {
        Location(
            time: start.advanced(by: .seconds(second)),
            latitude: depot.latitude + north / metresPerDegree,
            longitude: depot.longitude,
            horizontalAccuracy: accuracy
        )
    }

    /// Drives north at 10 m/s through `fixes` seconds; returns the transitions as "id kind state@second".
    static func drive(
        _ monitor: inout RegionMonitor<CircleLookup>,
        seconds: ClosedRange<Int>,
        metresPerSecond: Double = 10,
        from start: Double = 0
    ) -> [String] {
        seconds.flatMap { second in
            monitor.observe(fix(Double(second), north: start + Double(second) * metresPerSecond)).map(describe)
        }
    }

    static func describe(_ transition: RegionMonitor<CircleLookup>.Transition) -> String {
        let second = Int(transition.change.since.duration(since: start).secondsValue)
        return "\(transition.regionID) \(transition.kind) \(transition.change.state.rawValue)@\(second)"
    }

    @Test("no cushion, no dwell: enter and exit at the crossing fixes; the start reports only what is inside")
    func crossings() {
        // 10 m/s northwards: a (105 m) is left after 110 m; b (95 m around 500 m) is entered at 410 m and left
        // at 600 m. The radii keep every fix at least 5 m from a boundary.
        let lookup = CircleLookup(regions: [Self.circle("a", radius: 105), Self.circle("b", north: 500, radius: 95)])
        var monitor = RegionMonitor(lookup: lookup, settings: RegionSettings(cushion: 0, dwell: .zero))
        let events = Self.drive(&monitor, seconds: 0...70)
        #expect(
            events == [
                "a determination inside@0", "a crossing outside@11", "b crossing inside@41", "b crossing outside@60",
            ]
        )
        #expect(monitor.state(of: "a") == .outside && monitor.state(of: "b") == .outside)
    }

    @Test("with the cushion and the dwell, a change is reported at the crossing, confirmed later")
    func dwell() throws {
        let lookup = CircleLookup(regions: [Self.circle("a", north: 1000, radius: 102)])
        var monitor = RegionMonitor(lookup: lookup, settings: RegionSettings(cushion: 20, dwell: .seconds(20)))
        var transitions: [RegionMonitor<CircleLookup>.Transition] = []
        for second in 0...260 {
            transitions += monitor.observe(Self.fix(Double(second), north: Double(second) * 5))
        }
        // 5 m/s northwards towards a 102 m circle around 1000 m: inside by the 20 m cushion from 918 m, so at
        // the fix at 920 m (second 184), confirmed 20 s later; the start (outside) is not reported.
        let enter = try #require(transitions.first)
        #expect(Self.describe(enter) == "a crossing inside@184")
        #expect(enter.confirmed == Self.start.advanced(by: .seconds(204)))
    }

    @Test("inaccurate fixes change nothing")
    func maxAccuracy() {
        let lookup = CircleLookup(regions: [Self.circle("a")])
        var monitor = RegionMonitor(lookup: lookup, settings: RegionSettings(cushion: 0, dwell: .zero, maxAccuracy: 50))
        #expect(monitor.observe(Self.fix(0, north: 0, accuracy: 80)).isEmpty)
        #expect(monitor.state(of: "a") == .unknown)
        #expect(monitor.observe(Self.fix(1, north: 0, accuracy: 30)).map(Self.describe) == ["a determination inside@1"])
    }

    @Test("a region saved as inside and found outside after a start exits offline; one found inside enters")
    func offlineCrossings() {
        let lookup = CircleLookup(regions: [
            Self.circle("a"), Self.circle("b", north: 2000), Self.circle("c", north: 5000),
        ])
        var monitor = RegionMonitor(
            lookup: lookup,
            settings: RegionSettings(cushion: 0, dwell: .zero),
            savedInside: ["a", "c"]
        )
        let events = monitor.observe(Self.fix(0, north: 2000)).map(Self.describe)
        #expect(events == ["a offlineCrossing outside@0", "b offlineCrossing inside@0", "c offlineCrossing outside@0"])
    }

    @Test("a region added after the start reports its state, not an enter; a replaced one keeps its state")
    func replace() {
        var monitor = RegionMonitor(
            lookup: CircleLookup(regions: [Self.circle("a")]),
            settings: RegionSettings(cushion: 0, dwell: .zero)
        )
        #expect(monitor.observe(Self.fix(0, north: 0)).map(Self.describe) == ["a determination inside@0"])
        monitor.replace(CircleLookup(regions: [Self.circle("a", radius: 200), Self.circle("z", north: 50)]))
        #expect(monitor.state(of: "z") == .unknown)
        #expect(monitor.observe(Self.fix(1, north: 10)).map(Self.describe) == ["z determination inside@1"])
        #expect(monitor.state(of: "a") == .inside)
        monitor.replace(CircleLookup(regions: [Self.circle("z", north: 50)]))
        #expect(monitor.state(of: "a") == nil)
    }

    @Test("notify flags are carried; the state changes regardless")
    func notifyFlags() {
        var monitor = RegionMonitor(
            lookup: CircleLookup(regions: [Self.circle("a", notifyOnExit: false)]),
            settings: RegionSettings(cushion: 0, dwell: .zero)
        )
        _ = monitor.observe(Self.fix(0, north: 0))
        let exit = monitor.observe(Self.fix(1, north: 500))
        #expect(exit.map { $0.notifies } == [false])
        #expect(monitor.state(of: "a") == .outside)
    }
}
