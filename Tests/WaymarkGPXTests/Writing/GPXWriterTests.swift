import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkGPX

@Suite struct GPXWriterTests {
    static let t0 = Timestamp(iso8601: "2029-11-25T16:57:44.000Z")!

    static func point(_ offset: Int64, _ latitude: Double = 49.0265, _ longitude: Double = 12.0652) -> TrackPoint {
        TrackPoint(time: Timestamp(seconds: t0.seconds + offset), latitude: latitude, longitude: longitude)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        text(bytes).components(separatedBy: needle).count - 1
    }

    @Test func writesTheWholeDocumentInSchemaOrder() throws {
        var buffer: [UInt8] = []
        let first = TrackPoint(
            time: Self.t0,
            latitude: 49.026566667,
            longitude: 12.065271667,
            elevation: 336.7,
            speed: 0,
            course: 131.9
        )
        let second = TrackPoint(time: Self.t0.advanced(by: .seconds(2)), latitude: -33.5, longitude: -70.25)
        GPXWriter.track(name: "Regensburg", segments: [[first, second]], into: &buffer)
        #expect(
            Self.text(buffer) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="Waymark" xmlns="http://www.topografix.com/GPX/1/1" \
                xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
                xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
                xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
                  <metadata>
                    <time>2029-11-25T16:57:44.000Z</time>
                  </metadata>
                  <trk>
                    <name>Regensburg</name>
                    <trkseg>
                      <trkpt lat="49.026566667" lon="12.065271667"><ele>336.7</ele>\
                <time>2029-11-25T16:57:44.000Z</time><extensions><gpxtpx:TrackPointExtension>\
                <gpxtpx:speed>0</gpxtpx:speed><gpxtpx:course>131.9</gpxtpx:course>\
                </gpxtpx:TrackPointExtension></extensions></trkpt>
                      <trkpt lat="-33.5" lon="-70.25"><time>2029-11-25T16:57:46.000Z</time></trkpt>
                    </trkseg>
                  </trk>
                </gpx>

                """
        )
        #expect(try GPXSchema.problems(in: buffer) == nil)
    }

    @Test func waypointsGoBeforeTheTrackInSchemaOrder() throws {
        var buffer: [UInt8] = []
        let braking = Waypoint(
            time: Self.t0.advanced(by: .seconds(1)),
            latitude: 49.03,
            longitude: 12.07,
            name: "harsh_braking",
            description: "peak 4.71 m/s² <hard>, 2 s",
            type: "driving"
        )
        let unwritable = Waypoint(time: Self.t0, latitude: 91, longitude: 0, name: "nowhere")
        GPXWriter.track(
            name: "Regensburg",
            segments: [[Self.point(0), Self.point(2)]],
            waypoints: [braking, unwritable],
            into: &buffer
        )
        let expected =
            "  </metadata>\n  <wpt lat=\"49.03\" lon=\"12.07\"><time>2029-11-25T16:57:45.000Z</time>"
            + "<name>harsh_braking</name><desc>peak 4.71 m/s² &lt;hard&gt;, 2 s</desc><type>driving</type></wpt>\n"
            + "  <trk>\n"
        #expect(Self.text(buffer).contains(expected), "\(Self.text(buffer))")
        #expect(Self.count("<wpt", in: buffer) == 1)
        #expect(try GPXSchema.problems(in: buffer) == nil)
    }

    /// The validator can fail: `<time>` before `<ele>`, a longitude of 180 and a latitude beyond 90 are refused.
    @Test(arguments: [
        #"<trkpt lat="1" lon="2"><time>2029-11-25T16:57:44Z</time><ele>3</ele></trkpt>"#,
        #"<trkpt lat="1" lon="180"></trkpt>"#,
        #"<trkpt lat="90.1" lon="2"></trkpt>"#,
    ])
    func schemaRefusesWhatGPXForbids(point: String) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\(point)\
            </trkseg></trk></gpx>
            """
        let problems = try GPXSchema.problems(in: Array(document.utf8))
        #expect(problems?.contains("fails to validate") == true, "\(problems ?? "valid")")
    }

    @Test func splitsIntoSegmentsAtFixGaps() throws {
        let points = (0..<6).map { Self.point(Int64($0) * 10) }
        func gap(_ offset: Int64) -> Timestamp { Timestamp(seconds: Self.t0.seconds + offset) }
        func split(_ gaps: [Timestamp]) -> [[Int64]] {
            GPXWriter.segments(points, splitAt: gaps).map { $0.map { $0.time.seconds - Self.t0.seconds } }
        }
        #expect(split([]) == [[0, 10, 20, 30, 40, 50]])
        #expect(split([gap(15)]) == [[0, 10], [20, 30, 40, 50]])
        // At a point's own time the point still had its fix; several gaps between two points make one split;
        // gaps are taken in any order; gaps before the first or after the last point split nothing.
        #expect(split([gap(20)]) == [[0, 10, 20], [30, 40, 50]])
        #expect(split([gap(33), gap(31), gap(45), gap(-5), gap(99)]) == [[0, 10, 20, 30], [40], [50]])
        #expect(GPXWriter.segments([], splitAt: [gap(1)]).isEmpty)

        var buffer: [UInt8] = []
        GPXWriter.track(
            name: "split",
            segments: GPXWriter.segments(points, splitAt: [gap(15), gap(45)]),
            into: &buffer
        )
        #expect(Self.count("<trkseg>", in: buffer) == 3)
        #expect(Self.count("<trkpt ", in: buffer) == 6)
        #expect(try GPXSchema.problems(in: buffer) == nil)
        #expect(try GPXSchema.evaluate("count(//*[local-name()='trkseg'][2]/*)", in: buffer) == "3")
    }

    @Test func streamingWriterSplitsOnlyBetweenPoints() throws {
        var buffer: [UInt8] = []
        var writer = GPXWriter(name: "stream", creator: "Waymark test")
        writer.endSegment(into: &buffer)  // before any point: nothing to end
        writer.add(Self.point(0), into: &buffer)
        writer.endSegment(into: &buffer)
        writer.endSegment(into: &buffer)  // twice in a row: still one split
        writer.add(Self.point(10), into: &buffer)
        writer.add(Self.point(20), into: &buffer)
        writer.endSegment(into: &buffer)  // after the last point: no empty segment follows
        writer.finish(into: &buffer)
        #expect(writer.pointCount == 3)
        #expect(writer.segmentCount == 2)
        #expect(Self.count("<trkseg>", in: buffer) == 2)
        #expect(try GPXSchema.problems(in: buffer) == nil)
    }

    @Test func withoutPointsTheDocumentIsStillValid() throws {
        var buffer: [UInt8] = []
        GPXWriter.track(name: "empty", segments: [[], [Self.point(0, .nan, 0)]], into: &buffer)
        #expect(!Self.text(buffer).contains("<metadata>"))
        #expect(!Self.text(buffer).contains("<trkseg>"))
        #expect(try GPXSchema.problems(in: buffer) == nil)
    }

    @Test func escapesANastyTripName() throws {
        let name = "Trip <1> & \"Depot\" 'Nord' ]]> --> \u{1}bell\tTab\r\nNew line, Ümlaut, 🚚"
        var buffer: [UInt8] = []
        GPXWriter.track(name: name, segments: [[Self.point(0)]], creator: "Waymark & <friends>", into: &buffer)
        #expect(try GPXSchema.problems(in: buffer) == nil)
        let read = try GPXSchema.evaluate("string(//*[local-name()='trk']/*[local-name()='name'])", in: buffer)
        #expect(read == name.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
        let creator = try GPXSchema.evaluate("string(/*/@creator)", in: buffer)
        #expect(creator == "Waymark & <friends>")
    }

    @Test func writesTheEdgesOfTheGlobeAndSkipsWhatIsBeyond() throws {
        let edges = [
            Self.point(0, 90, 180), Self.point(1, -90, -180), Self.point(2, 0, 179.9999999996),
            Self.point(3, 0.0000001, -0.00000000001), Self.point(4, 45, 179.999999999),
        ]
        let beyond = [
            Self.point(5, 90.0000001, 0), Self.point(6, -91, 0), Self.point(7, 0, 180.5), Self.point(8, 0, -181),
            Self.point(9, .nan, 0), Self.point(10, 0, .infinity),
        ]
        var buffer: [UInt8] = []
        GPXWriter.track(name: "edges", segments: [edges + beyond], into: &buffer)
        #expect(try GPXSchema.problems(in: buffer) == nil)
        let attributes = Self.text(buffer).split(separator: "\n").filter { $0.contains("<trkpt") }.map {
            String($0.split(separator: ">")[0].dropFirst("      <trkpt ".count))
        }
        #expect(
            attributes == [
                #"lat="90" lon="-180""#, #"lat="-90" lon="-180""#, #"lat="0" lon="-180""#,
                #"lat="0.0000001" lon="0""#, #"lat="45" lon="179.999999999""#,
            ]
        )
    }

    @Test func speedAndCourseGoIntoTheTrackPointExtension() throws {
        var fast = Self.point(0)
        fast.speed = 29.02
        fast.course = 360
        var backwards = Self.point(1)
        backwards.speed = -1
        backwards.course = -10
        var unknown = Self.point(2)
        unknown.speed = .nan
        unknown.elevation = .infinity
        var buffer: [UInt8] = []
        GPXWriter.track(name: "extensions", segments: [[fast, backwards, unknown]], into: &buffer)
        #expect(try GPXSchema.problems(in: buffer) == nil)
        let lines = Self.text(buffer).split(separator: "\n").filter { $0.contains("<trkpt") }
        #expect(lines[0].contains("<gpxtpx:speed>29.02</gpxtpx:speed><gpxtpx:course>0</gpxtpx:course>"))
        #expect(lines[1].contains("<extensions><gpxtpx:TrackPointExtension><gpxtpx:course>350</gpxtpx:course>"))
        #expect(!lines[2].contains("<extensions>") && !lines[2].contains("<ele>"))
    }
}
