import Testing
import WaymarkCore

/// The odometer: the trips' distances, never a parked receiver's wander, carried by what the agent saved.
@Suite struct OdometerTests {
    @Test("parked with wander: the odometer does not move")
    func parked() {
        let run = ActivityMonitorTests.run([.park(seconds: 1800, wander: 20)])
        #expect(run.monitor.odometer == 0)
    }

    @Test("it is the sum of the trips' distances, stops and all, and goes on from the value set")
    func trips() {
        var run = ActivityMonitorTests.Run(ActivityMonitorTests.settings())
        run.monitor.setOdometer(12_345_000)
        run.play([
            .park(seconds: 40, wander: 10), .drive(seconds: 120, speed: 10), .park(seconds: 60, wander: 10),
            .drive(seconds: 30, speed: 20), .park(seconds: 60),
        ])
        let total = run.trips.reduce(0) { $0 + $1.distance }
        #expect(run.trips.count == 2)
        #expect(abs(run.monitor.odometer - 12_345_000 - total) < 1e-6)
        // 1200 m and 600 m driven, as the fixes were placed.
        #expect(abs(total - 1800) < 20)
        #expect(run.trips.last?.odometer == run.monitor.odometer)
        run.monitor.setOdometer(-1)
        #expect(run.monitor.odometer > 12_345_000)
    }
}
