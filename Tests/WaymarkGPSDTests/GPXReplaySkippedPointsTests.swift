import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkGPX
import WaymarkTestSupport

@Suite("GPX replay explains the points it skips")
struct GPXReplaySkippedPointsTests {
    @Test("skipped points are counted by code, the first listed with their lines, and the remedy named")
    func explainsSkippedPoints() throws {
        let file = try GPXFile.parse(Array(GPXTestDocument.untimedRoute.utf8), fileName: "route.gpx")
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
        let replay = GPXReplay(try GPXFile.parse(Array(text.utf8), fileName: "drive.gpx"))
        #expect(
            replay.skippedPoints(fileName: "drive.gpx") == [
                "drive.gpx: 1 of its points was skipped: bad_fix=1",
                #"drive.gpx:4: fix "4d" is not none, 2d, 3d, dgps or pps"#,
                "drive.gpx: mend or remove the points listed to replay them",
            ]
        )
        let timed = GPXTestDocument.track(#"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>"#)
        #expect(
            GPXReplay(try GPXFile.parse(Array(timed.utf8), fileName: "drive.gpx")).skippedPoints(fileName: "drive.gpx")
                == []
        )
    }
}
