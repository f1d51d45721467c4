import Benchmark
import WaymarkCore

/// Beacon region monitoring per sighting: `BeaconMonitor.observe` with 10 and with 1,000 beacon regions.
///
/// The regions are a fleet's depot gates: one proximity UUID, one major per gate (`UUID:MAJOR`), and one region of
/// the UUID alone (every vehicle tag of the fleet). The sightings are tags of the fleet heard at the gates in turn,
/// so each matches the fleet's region and one gate's, as at a depot; one iteration observes 1,000 of them after
/// a first pass has entered every region, so the wall clock is per 1,000 sightings of a steady state.
/// `beacons.observe.peer-scan.1000` is the check the monitor made before its index (every region's constraint
/// against each sighting), for the same sightings.
let benchmarks: @Sendable () -> Void = {
    for count in [10, 1000] {
        Benchmark(
            "beacons.observe.\(count)",
            configuration: configuration(regions: count)
        ) { benchmark in
            let sightings = fleetSightings(gates: count - 1)
            var monitor = BeaconMonitor(regions: fleetRegions(gates: count - 1), now: instant(0))
            var second = 1.0
            // Every region entered first: what is measured is the steady state of a depot, a sighting's match
            // and its refreshed timer, not the enters (of which there are more with more regions).
            for sighting in sightings { blackHole(monitor.observe(sighting, now: instant(0.5))) }
            benchmark.startMeasurement()
            for sighting in sightings {
                blackHole(monitor.observe(sighting, now: instant(second)))
                second += 0.001
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark(
        "beacons.observe.peer-scan.1000",
        configuration: configuration(regions: 1000)
    ) { benchmark in
        let constraints = fleetRegions(gates: 999).map(\.constraint)
        let sightings = fleetSightings(gates: 999)
        benchmark.startMeasurement()
        for sighting in sightings {
            var matched = 0
            for constraint in constraints where constraint.matches(sighting.beacon) { matched += 1 }
            blackHole(matched)
        }
        benchmark.stopMeasurement()
    }
}

/// One iteration is 1,000 sightings: microseconds per iteration are nanoseconds per sighting.
private func configuration(regions: Int) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .mallocCountTotal],
        tags: ["regions": "\(regions)"],
        timeUnits: .microseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 5,
        maxDuration: .seconds(5),
        maxIterations: 2000
    )
}

private let fleet = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

private func instant(_ seconds: Double) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + Int64(seconds * 1e9))
}

/// The fleet's region and `gates` gate regions.
private func fleetRegions(gates: Int) -> [BeaconRegion] {
    [BeaconRegion(id: "fleet", constraint: BeaconConstraint(uuid: fleet))]
        + (0..<gates).map { gate in
            BeaconRegion(id: "gate-\(gate)", constraint: BeaconConstraint(uuid: fleet, major: UInt16(gate)))
        }
}

/// 1,000 sightings of the fleet's tags at the gates in turn.
private func fleetSightings(gates: Int) -> [BeaconSighting] {
    (0..<1000).map { index in
        let beacon = BeaconID(uuid: fleet, major: UInt16(index % gates), minor: UInt16(index))
        return BeaconSighting(beacon: beacon, measuredPower: -59, rssi: -60 - index % 20)
    }
}
