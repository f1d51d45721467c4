import Testing
import WaymarkCore
import WaymarkGPSD

@Suite("A planned route without times: explained when skipped, replayed at a route speed when asked")
struct GPXRouteTests {
    /// Three route points 0.01° of latitude apart, on lines 4 to 6, without times.
    static let route = GPXTestDocument.gpx(
        """
        <rte>
        <rtept lat="49.00" lon="12.0"/>
        <rtept lat="49.01" lon="12.0"/>
        <rtept lat="49.02" lon="12.0"><fix></fix></rtept>
        </rte>
        """
    )

    @Test("skipped points are counted by code, the first listed with their lines, and the remedy named")
    func explainsSkippedPoints() throws {
        let file = try GPXTestDocument.parse(Self.route, fileName: "route.gpx")
        let replay = GPXReplay(file)
        var rejections: [String] = []
        while let update = replay.next() {
            if case .rejected(let rejection) = update.event { rejections.append(rejection.reason) }
        }
        #expect(rejections == ["no_time", "no_time", "no_time"])
        #expect(
            replay.skippedPoints(fileName: "route.gpx", limit: 2) == [
                "route.gpx: 3 of its points were skipped: no_time=3",
                "route.gpx:4: no time",
                "route.gpx:5: no time",
                "route.gpx: and 1 more",
                "route.gpx: 3 points have no <time>: to replay a planned route, give a constant speed with "
                    + "--route-speed KMH (such as --route-speed 50), and the times follow from the distances",
            ]
        )
    }

    @Test("other skipped points are listed with a request to mend them; none, no lines")
    func explainsOtherProblems() throws {
        let text = GPXTestDocument.track(
            #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time><fix>4d</fix></trkpt>"#
        )
        let replay = GPXReplay(try GPXTestDocument.parse(text, fileName: "drive.gpx"))
        #expect(
            replay.skippedPoints(fileName: "drive.gpx") == [
                "drive.gpx: 1 of its points was skipped: bad_fix=1",
                #"drive.gpx:4: fix "4d" is not none, 2d, 3d, dgps or pps"#,
                "drive.gpx: mend or remove the points listed to replay them",
            ]
        )
        let timed = GPXTestDocument.track(#"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>"#)
        #expect(GPXReplay(try GPXTestDocument.parse(timed)).skippedPoints(fileName: "drive.gpx") == [])
    }

    @Test("at a route speed, each point is reached along the geodesic from the one before", arguments: [50.0, 120.0])
    func timesFollowFromDistances(kilometresPerHour: Double) throws {
        let speed = kilometresPerHour / 3.6
        let file = try GPXFile.parse(Array(Self.route.utf8), fileName: "route.gpx", routeSpeed: speed)
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
