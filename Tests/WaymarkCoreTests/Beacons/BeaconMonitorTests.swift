import Testing
import WaymarkCore

@Suite struct BeaconMonitorTests {
    typealias V = BeaconTestValues

    static let dockTag = V.beacon(1, 2)
    static let gateTag = V.beacon(1, 7)
    static let otherTag = V.beacon(9, 1, uuid: V.estimote)

    /// "fleet" matches every AirLocate beacon, "gate" major 1 minor 7 only, "yard" the Estimote ones.
    static func regions(rangingGate: Bool? = nil) -> [BeaconRegion] {
        [
            BeaconRegion(id: "yard", constraint: BeaconConstraint(uuid: V.estimote)),
            BeaconRegion(
                id: "gate",
                constraint: BeaconConstraint(uuid: V.airLocate, major: 1, minor: 7),
                ranging: rangingGate
            ),
            BeaconRegion(id: "fleet", constraint: BeaconConstraint(uuid: V.airLocate), notifyOnEntry: false),
        ]
    }

    static func describe(_ output: BeaconMonitor.Output) -> String {
        switch output {
        case .crossing(let regionID, let crossing, let beacon, let notifies):
            "\(regionID) \(crossing) \(beacon.map { "\($0.major):\($0.minor)" } ?? "-")\(notifies ? "" : " silent")"
        case .determination(let regionID, let state): "\(regionID) \(state)"
        case .ranging(let beacon, let change):
            "\(beacon.beacon.major):\(beacon.beacon.minor) \(change) for \(beacon.regionID)"
        }
    }

    static func hear(
        _ monitor: inout BeaconMonitor,
        _ beacon: BeaconID,
        at second: Double,
        rssi: Int = -65
    ) -> [String] {
        monitor.observe(V.sighting(beacon, rssi: rssi), now: V.at(second)).map(describe)
    }

    @Test("first start: a sighting enters every region it matches; silence exits them, or determines them outside")
    func firstStart() {
        var monitor = BeaconMonitor(regions: Self.regions(), now: V.at(0))
        #expect(["fleet", "gate", "yard"].map { monitor.state(of: $0) } == [.unknown, .unknown, .unknown])
        #expect(monitor.nextDeadline == V.at(30))
        #expect(Self.hear(&monitor, Self.gateTag, at: 2) == ["fleet enter 1:7 silent", "gate enter 1:7"])
        #expect(Self.hear(&monitor, Self.dockTag, at: 10).isEmpty)
        #expect(monitor.insideIDs == ["fleet", "gate"])
        #expect(monitor.advance(to: V.at(29.999)).isEmpty)
        #expect(monitor.advance(to: V.at(30)).map(Self.describe) == ["yard outside"])
        #expect(monitor.nextDeadline == V.at(32))
        // "gate" last heard at 2 s, "fleet" at 10 s (the 1:2 tag, which the exit carries).
        #expect(monitor.advance(to: V.at(32)).map(Self.describe) == ["gate exit 1:7"])
        #expect(monitor.advance(to: V.at(40)).map(Self.describe) == ["fleet exit 1:2"])
        #expect(monitor.nextDeadline == nil && monitor.insideIDs.isEmpty)
        #expect(Self.hear(&monitor, Self.otherTag, at: 50) == ["yard enter 9:1"])
        #expect(monitor.state(of: "nowhere") == nil)
    }

    @Test("the exit timer stands still while not scanning")
    func scanningPaused() {
        var monitor = BeaconMonitor(regions: Self.regions(), savedInside: [], now: V.at(0))
        #expect(Self.hear(&monitor, Self.gateTag, at: 5) == ["fleet enter 1:7 silent", "gate enter 1:7"])
        #expect(monitor.setScanning(false, now: V.at(20)).isEmpty)
        #expect(monitor.nextDeadline == nil)
        #expect(monitor.advance(to: V.at(600)).isEmpty)
        #expect(monitor.insideIDs == ["fleet", "gate"])
        #expect(monitor.setScanning(true, now: V.at(600)).isEmpty)
        // 15 s of scanning counted before the pause, 15 s after it.
        #expect(monitor.nextDeadline == V.at(615))
        #expect(monitor.advance(to: V.at(614.999)).isEmpty)
        #expect(monitor.advance(to: V.at(615)).map(Self.describe) == ["fleet exit 1:7", "gate exit 1:7"])
    }

    @Test("stopping the scan reports what fell due before it")
    func dueAtStop() {
        var monitor = BeaconMonitor(regions: Self.regions(), savedInside: [], now: V.at(0))
        _ = Self.hear(&monitor, Self.otherTag, at: 0)
        #expect(monitor.setScanning(false, now: V.at(45)).map(Self.describe) == ["yard exit 9:1"])
    }

    @Test("after a restart: saved inside stays inside without a second enter; the others start outside")
    func restart() {
        var monitor = BeaconMonitor(regions: Self.regions(), savedInside: ["fleet", "yard"], now: V.at(0))
        #expect(monitor.insideIDs == ["fleet", "yard"] && monitor.state(of: "gate") == .outside)
        #expect(Self.hear(&monitor, Self.gateTag, at: 5) == ["gate enter 1:7"])
        // "yard" was not heard since the start: its exit has no beacon. Nothing determines "gate" or "fleet" now.
        #expect(monitor.advance(to: V.at(30)).map(Self.describe) == ["yard exit -"])
        #expect(monitor.advance(to: V.at(35)).map(Self.describe) == ["fleet exit 1:7", "gate exit 1:7"])
        #expect(monitor.advance(to: V.at(1000)).isEmpty && monitor.nextDeadline == nil)
    }

    @Test("replace: kept regions keep their state, removed ones go without an exit, new ones are unknown")
    func replace() {
        var monitor = BeaconMonitor(regions: Self.regions(), savedInside: [], now: V.at(0))
        _ = Self.hear(&monitor, Self.gateTag, at: 0)
        var regions = Self.regions().filter { $0.id != "fleet" }
        regions[1].notifyOnExit = false  // "gate"
        regions.append(BeaconRegion(id: "bay", constraint: BeaconConstraint(uuid: V.airLocate, major: 2)))
        monitor.replace(regions, now: V.at(10))
        #expect(monitor.regions.map(\.id) == ["bay", "gate", "yard"])
        #expect(monitor.state(of: "fleet") == nil && monitor.state(of: "bay") == .unknown)
        #expect(monitor.state(of: "gate") == .inside && monitor.state(of: "yard") == .outside)
        #expect(monitor.advance(to: V.at(30)).map(Self.describe) == ["gate exit 1:7 silent"])
        #expect(monitor.advance(to: V.at(40)).map(Self.describe) == ["bay outside"])
        #expect(Self.hear(&monitor, V.beacon(2, 5), at: 41) == ["bay enter 2:5"])
    }

    @Test("ranging: for the first ranging region by id; nil follows the settings; reports follow the regions")
    func ranging() {
        var monitor = BeaconMonitor(regions: Self.regions(rangingGate: true), savedInside: [], now: V.at(0))
        #expect(Self.hear(&monitor, Self.dockTag, at: 0) == ["fleet enter 1:2 silent"])
        #expect(
            Self.hear(&monitor, Self.gateTag, at: 1) == ["gate enter 1:7", "1:7 appeared for gate"]
        )
        #expect(monitor.ranged.map(\.beacon) == [Self.gateTag])
        monitor.apply(BeaconSettings(ranging: true), now: V.at(2))
        #expect(monitor.ranged.map(\.regionID) == ["fleet"])
        #expect(Self.hear(&monitor, Self.dockTag, at: 3) == ["1:2 appeared for fleet"])
        // Ranging off everywhere: the ranged beacons are forgotten without a report.
        monitor.replace(Self.regions(rangingGate: false), now: V.at(4))
        monitor.apply(BeaconSettings(ranging: false), now: V.at(4))
        #expect(monitor.ranged.isEmpty)
        #expect(Self.hear(&monitor, Self.gateTag, at: 5).isEmpty)
        #expect(monitor.advance(to: V.at(40)).map(Self.describe) == ["fleet exit 1:7", "gate exit 1:7"])
    }

    @Test("outputs of one instant: region exits by id, then ranging by beacon (UUID, major, minor)")
    func order() {
        let settings = BeaconSettings(ranging: true)
        var monitor = BeaconMonitor(regions: Self.regions(), settings: settings, savedInside: [], now: V.at(0))
        _ = Self.hear(&monitor, Self.otherTag, at: 0)
        _ = Self.hear(&monitor, Self.gateTag, at: 0)
        _ = Self.hear(&monitor, Self.dockTag, at: 0)
        #expect(monitor.nextDeadline == V.at(5))
        let unknown = monitor.advance(to: V.at(5)).map(Self.describe)
        #expect(unknown == ["9:1 proximity for yard", "1:2 proximity for fleet", "1:7 proximity for fleet"])
        let exits = monitor.advance(to: V.at(30)).map(Self.describe)
        #expect(
            exits == [
                "fleet exit 1:2", "gate exit 1:7", "yard exit 9:1",
                "9:1 lost for yard", "1:2 lost for fleet", "1:7 lost for fleet",
            ]
        )
    }

    @Test("1,000 sightings a second for a minute: one enter, one appeared, an update per interval; 16 samples")
    func flood() {
        var monitor = BeaconMonitor(
            regions: Self.regions(rangingGate: true),
            savedInside: [],
            now: V.at(0)
        )
        var outputs: [String] = []
        var largest = 0
        for millisecond in 0..<60_000 {
            let now = V.at(Double(millisecond) / 1000)
            let sighting = V.sighting(Self.gateTag, rssi: -68 + millisecond % 5)  // 2.8 m to 1.8 m: near
            outputs += monitor.observe(sighting, now: now).map(Self.describe)
            largest = max(largest, monitor.ranger.sampleCount(of: Self.gateTag) ?? 0)
        }
        #expect(
            outputs == [
                "fleet enter 1:7 silent", "gate enter 1:7", "1:7 appeared for gate", "1:7 update for gate",
                "1:7 update for gate", "1:7 update for gate", "1:7 update for gate", "1:7 update for gate",
            ]
        )
        #expect(largest == 16)
    }
}

/// The index by UUID and major: among many regions, a sighting enters exactly those it matches, in id order.
@Suite struct BeaconRegionIndexTests {
    typealias V = BeaconTestValues

    @Test func aSightingEntersExactlyTheRegionsItMatchesAmongAThousand() {
        var regions: [BeaconRegion] = []
        for major in UInt16(0)..<100 {
            for minor in UInt16(0)..<9 {
                let constraint = BeaconConstraint(uuid: V.airLocate, major: major, minor: minor)
                regions.append(BeaconRegion(id: "m\(major)-\(minor)", constraint: constraint))
            }
            regions.append(BeaconRegion(id: "m\(major)", constraint: BeaconConstraint(uuid: V.airLocate, major: major)))
        }
        regions.append(BeaconRegion(id: "all", constraint: BeaconConstraint(uuid: V.airLocate)))
        regions.append(BeaconRegion(id: "estimote", constraint: BeaconConstraint(uuid: V.estimote)))
        var monitor = BeaconMonitor(regions: regions, settings: BeaconSettings(ranging: false), now: V.at(0))
        let entered = monitor.observe(V.sighting(V.beacon(42, 7), rssi: -60), now: V.at(1)).compactMap { output in
            if case .crossing(let id, .enter, _, _) = output { id } else { nil }
        }
        #expect(entered == ["all", "m42", "m42-7"])
        // A major no region names: only the UUID's region.
        let other = monitor.observe(V.sighting(V.beacon(500, 7), rssi: -60), now: V.at(2))
        #expect(other.isEmpty)  // "all" is inside already
        #expect(monitor.insideIDs == ["all", "m42", "m42-7"])
        // After a replace the index follows the new regions.
        monitor.replace([BeaconRegion(id: "x", constraint: BeaconConstraint(uuid: V.estimote, major: 9))], now: V.at(3))
        let estimote = monitor.observe(V.sighting(V.beacon(9, 1, uuid: V.estimote), rssi: -60), now: V.at(4))
        #expect(estimote.count == 1)
        #expect(monitor.insideIDs == ["x"])
    }
}
