import Testing
import WaymarkCore

/// Driving in the pipeline: a region's `speed_limit` from the region file to the overspeed it judges, and a trip's
/// summary with its driving events and the odometer.
@Suite struct DrivingPipelineTests {
    static let start = Timestamp(seconds: 1_764_000_000)
    static let metresPerDegreeLongitude = 111_320.0 * 0.656  // cos 49°

    /// One fix a second, driving east at each of `speeds` (m/s), from 12.1° E. With `ggaFirst`, each epoch starts
    /// with a fix of the same time without a speed, as gpsd's GGA-triggered TPV before the RMC's.
    static func drive(_ speeds: [Double], ggaFirst: Bool = false, through pipeline: inout EventPipeline) -> [Event] {
        var events: [Event] = []
        var east = 0.0
        for (second, speed) in speeds.enumerated() {
            east += speed
            let fix = Location(
                time: start.advanced(by: .seconds(second)),
                latitude: 49,
                longitude: 12.1 + east / metresPerDegreeLongitude,
                horizontalAccuracy: 5,
                speed: speed,
                course: 90
            )
            var gga = fix
            gga.speed = nil
            gga.course = nil
            let epoch: [Location] = ggaFirst ? [gga, fix] : [fix]
            for (index, tpv) in epoch.enumerated() {
                let update = SourceUpdate(
                    .location(tpv),
                    monotonic: MonotonicInstant(nanoseconds: Int64(second) * 1_000_000_000 + Int64(index) * 100_000),
                    wallClock: start.advanced(by: .seconds(second))
                )
                events += pipeline.handle(update)
            }
        }
        return events
    }

    @Test("a receiver that sends GGA before RMC: the RMC's speed, a repeated epoch, is judged")
    func ggaBeforeRMC() {
        var pipeline = EventPipeline(driving: DrivingSettings(overspeedLimit: 3))
        // 4 m/s for 10 s over a 3 m/s limit, then 1 m/s: one overspeed, confirmed after 5 s, ended by slowing.
        let speeds = Array(repeating: 4.0, count: 10) + [1, 1]
        let reports = Self.driving(Self.drive(speeds, ggaFirst: true, through: &pipeline))
        #expect(reports.map(\.kind) == [.overspeedStart, .overspeedEnd])
        #expect(reports.last?.duration == .seconds(10))
    }

    static func driving(_ events: [Event]) -> [DrivingReport] {
        events.compactMap { event in
            guard case .driving(let report) = event.kind else { return nil }
            return report
        }
    }

    @Test("speed_limit in the region file: read, written back, and a bad value named")
    func regionFile() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"id": "school", "speed_limit": 30, "radius": 300}, \
            "geometry": {"type": "Point", "coordinates": [12.1, 49.0]}},
            {"type": "Feature", "properties": {"id": "bad", "speed_limit": -5, "radius": 300}, \
            "geometry": {"type": "Point", "coordinates": [12.2, 49.0]}},
            {"type": "Feature", "properties": {"id": "text", "speed_limit": "30", "radius": 300}, \
            "geometry": {"type": "Point", "coordinates": [12.3, 49.0]}}
            ]}
            """
        let file = RegionFile(parsing: Array(text.utf8), fileName: "regions.geojson")
        let school = try #require(file.features.first?.region)
        #expect(school.speedLimitKmh == 30)
        #expect(
            file.problems.map(\.description) == [
                #"regions.geojson:3:64: features[1] (id "bad"): properties.speed_limit = -5: must be a number of km/h above 0, up to 1000"#,
                #"regions.geojson:4:65: features[2] (id "text"): properties.speed_limit = "30": must be a number of km/h above 0, up to 1000"#,
            ]
        )
        let written = RegionFile.encode([school])
        let again = RegionFile(parsing: written, fileName: "regions.geojson")
        #expect(try again.checkedRegions() == [school])
    }

    @Test("a region's speed_limit is the overspeed limit inside it")
    func regionLimit() throws {
        let zone = Region(
            id: "school",
            shape: .circle(center: Coordinate(latitude: 49, longitude: 12.1), radius: 2000),
            speedLimitKmh: 30
        )
        var pipeline = EventPipeline(regions: RegionSettings(cushion: 0, dwell: .zero))
        _ = pipeline.monitor(RegionIndex([try PreparedRegion(zone)]), refusals: [], at: Self.start)
        // 40 km/h for 20 s, inside the zone all along (800 m of its 2 km).
        let reports = Self.driving(Self.drive(Array(repeating: 40 / 3.6, count: 20), through: &pipeline))
        #expect(reports.map(\.kind) == [.overspeedStart])
        #expect(reports.first.flatMap(\.limit).map { abs($0 - 30 / 3.6) < 1e-9 } == true)
        // Without the region, no global limit: nothing.
        var unlimited = EventPipeline()
        #expect(Self.driving(Self.drive(Array(repeating: 40 / 3.6, count: 20), through: &unlimited)).isEmpty)
    }

    @Test("a trip carries its driving events' counts and worst values, and the odometer at its end")
    func tripSummary() throws {
        var pipeline = EventPipeline(odometer: 1000)
        // Away from a standstill, 20 m/s, a 4 m/s² braking to 12 m/s, on at 12 m/s; then the agent stops.
        let speeds = [0, 0, 0, 5, 10, 15, 20, 20, 20, 20, 16, 12, 12, 12, 12] as [Double]
        var events = Self.drive(speeds, through: &pipeline)
        events += pipeline.finish()
        let reports = Self.driving(events)
        #expect(reports.map(\.kind) == [.harshAcceleration, .harshBraking])
        let trip = try #require(
            events.compactMap { event -> TripSummary? in
                guard case .trip(let summary) = event.kind else { return nil }
                return summary
            }.first
        )
        #expect(trip.driving?.entries["harsh_braking"]?.count == 1)
        #expect(trip.driving?.entries["harsh_braking"]?.worst == 4)
        #expect(trip.driving?.entries["harsh_acceleration"]?.count == 1)
        #expect(trip.driving?.entries["harsh_cornering"] == nil)
        #expect(trip.odometer.map { abs($0 - 1000 - trip.distance) < 1e-6 } == true)
        #expect(trip.distance > 150)
    }
}
