import Testing
import WaymarkCore
import WaymarkGPX
import WaymarkTestSupport

@Suite("A planned route without times, replayed at a route speed when asked")
struct GPXRouteTests {
    @Test("at a route speed, each point is reached along the geodesic from the one before", arguments: [50.0, 120.0])
    func timesFollowFromDistances(kilometresPerHour: Double) throws {
        let speed = kilometresPerHour / 3.6
        let file = try GPXFile.parse(Array(GPXTestDocument.untimedRoute.utf8), fileName: "route.gpx", routeSpeed: speed)
        #expect(file.rejected == [])
        #expect(file.locations.map(\.latitude) == [49.00, 49.01, 49.02])
        let times = file.locations.map { $0.time.secondsSince1970 - GPXFile.routeStart.secondsSince1970 }
        let first = Geodesic.distance(
            from: Coordinate(latitude: 49.00, longitude: 12),
            to: Coordinate(latitude: 49.01, longitude: 12)
        )
        let second = Geodesic.distance(
            from: Coordinate(latitude: 49.01, longitude: 12),
            to: Coordinate(latitude: 49.02, longitude: 12)
        )
        #expect(abs(first - 1112) < 1, "0.01° of latitude at 49° N is about 1112 m")
        #expect(times[0] == 0)
        #expect(abs(times[1] - first / speed) < 1e-6)
        #expect(abs(times[2] - (first + second) / speed) < 1e-6)
    }

    @Test("a route speed times only the points without time: a timed point keeps its own")
    func timedPointsKeepTheirTimes() throws {
        let text = GPXTestDocument.track(
            """
            <trkpt lat="49.00" lon="12.0"><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="49.01" lon="12.0"/>
            """
        )
        let file = try GPXFile.parse(Array(text.utf8), fileName: "mixed.gpx", routeSpeed: 10)
        let start = try #require(Timestamp(iso8601: "2024-05-01T10:00:00Z"))
        #expect(file.locations.first?.time == start)
        let elapsed = try #require(file.locations.last).time.secondsSince1970 - start.secondsSince1970
        #expect(abs(elapsed - 111.2) < 0.1)
    }
}
