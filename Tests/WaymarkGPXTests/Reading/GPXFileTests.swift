import Testing
import WaymarkCore
import WaymarkGPX
import WaymarkTestSupport

@Suite("GPX points become locations")
struct GPXFileTests {
    /// 2024-05-01T10:00:00Z.
    static let start = Timestamp(seconds: 1_714_557_600)

    @Test("a generated track of 1,000 points keeps every point, time and field")
    func generatedTrack() throws {
        var points = ""
        var expected: [Location] = []
        for second in 0..<1000 {
            let time = Self.start.advanced(by: .seconds(second))
            var location = Location(
                time: time,
                latitude: 48.137 + Double(second) * 0.0001,
                longitude: 11.575 - Double(second) * 0.0002,
                mode: .twoD
            )
            points += "<trkpt lat=\"\(location.latitude)\" lon=\"\(location.longitude)\">"
            if second % 2 == 0 {
                let elevation = 519.5 + Double(second) / 10
                points += "<ele>\(elevation)</ele>"
                location.altitudeMSL = elevation
                location.mode = .threeD
            }
            points += "<time>\(time.iso8601)</time>"
            if second % 3 == 0 {
                let hdop = 0.6 + Double(second % 7) / 10
                points += "<hdop>\(hdop)</hdop>"
                location.horizontalAccuracy = hdop * 15
            }
            if second % 5 == 0 {
                let speed = Double(second % 40) / 4
                let course = Double(second % 360)
                points += "<extensions><gpxtpx:TrackPointExtension>"
                points += "<gpxtpx:speed>\(speed)</gpxtpx:speed><gpxtpx:course>\(course)</gpxtpx:course>"
                points += "</gpxtpx:TrackPointExtension></extensions>"
                location.speed = speed
                location.course = course
            }
            points += "</trkpt>\n"
            expected.append(location)
        }

        let file = try GPXTestDocument.parse(GPXTestDocument.track(points))

        #expect(file.rejected == [])
        #expect(file.locations.count == 1000)
        #expect(file.locations.first?.time == Self.start)
        #expect(file.locations.last?.time == Self.start.advanced(by: .seconds(999)))
        let firstDifference = expected.indices.first {
            $0 >= file.locations.count || file.locations[$0] != expected[$0]
        }
        #expect(firstDifference == nil, "point \(firstDifference ?? 0) differs")
    }

    @Test("waypoints, route points and track points are read in document order")
    func allPointKinds() throws {
        let text = GPXTestDocument.gpx(
            """
            <wpt lat="1" lon="1"><time>2024-05-01T10:00:01Z</time><name>Start</name></wpt>
            <rte><name>Route</name>
              <rtept lat="2" lon="2"><time>2024-05-01T10:00:02Z</time></rtept>
              <rtept lat="3" lon="3"><time>2024-05-01T10:00:03Z</time></rtept>
            </rte>
            <trk><trkseg><trkpt lat="4" lon="4"><time>2024-05-01T10:00:04Z</time></trkpt></trkseg>
              <trkseg><trkpt lat="5" lon="5"><time>2024-05-01T10:00:05Z</time></trkpt></trkseg></trk>
            <trk><trkseg><trkpt lat="6" lon="6"><time>2024-05-01T10:00:06Z</time></trkpt></trkseg></trk>
            <wpt lat="7" lon="7"><time>2024-05-01T10:00:07Z</time></wpt>
            """
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations.map(\.latitude) == [1, 2, 3, 4, 5, 6, 7])
        #expect(file.locations.map(\.time) == (1...7).map { Self.start.advanced(by: .seconds($0)) })
        #expect(file.rejected == [])
    }

    @Test("ele, hdop and vdop map to altitude above sea level and gpsd's accuracies")
    func elevationAndDilution() throws {
        let text = GPXTestDocument.track(
            """
            <trkpt lat="-33.8568" lon="151.2153">
              <ele>-12.5</ele><time>2024-05-01T10:00:00Z</time><sat>9</sat>
              <hdop>1.2</hdop><vdop>2</vdop><pdop>2.3</pdop>
            </trkpt>
            """
        )

        let location = try #require(try GPXTestDocument.parse(text).locations.first)

        #expect(location.latitude == -33.8568)
        #expect(location.longitude == 151.2153)
        #expect(location.altitudeMSL == -12.5)
        #expect(location.altitudeHAE == nil)
        #expect(location.horizontalAccuracy == 1.2 * 15)
        #expect(location.verticalAccuracy == 46)
        #expect(location.mode == .threeD)
    }

    @Test(
        "times in the forms GPX writers use; a time without a zone is UTC",
        arguments: [
            ("2024-05-01T10:00:00Z", 0),
            ("2024-05-01T10:00:00.250Z", 250),
            ("2024-05-01T12:00:00.5+02:00", 500),
            ("2024-05-01T05:30:00-0430", 0),
            ("2024-05-01T10:00:00", 0),
            ("\n  2024-05-01T10:00:00Z\n", 0),
        ]
    )
    func timeForms(time: String, milliseconds: Int) throws {
        let text = GPXTestDocument.track("<trkpt lat=\"1\" lon=\"2\"><time>\(time)</time></trkpt>")

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations.map(\.time) == [Self.start.advanced(by: .milliseconds(milliseconds))])
    }

    @Test(
        "fix sets the mode; without it, ele decides",
        arguments: [
            (fix: nil, elevation: false, mode: FixMode.twoD),
            (fix: nil, elevation: true, mode: .threeD),
            (fix: "2d", elevation: true, mode: .twoD),
            (fix: "3d", elevation: false, mode: .threeD),
            (fix: "dgps", elevation: false, mode: .threeD),
            (fix: "pps", elevation: true, mode: .threeD),
            (fix: " 3D ", elevation: false, mode: .threeD),
        ] as [(fix: String?, elevation: Bool, mode: FixMode)]
    )
    func fixMode(fix: String?, elevation: Bool, mode: FixMode) throws {
        let children = (elevation ? "<ele>10</ele>" : "") + (fix.map { "<fix>\($0)</fix>" } ?? "")
        let text = GPXTestDocument.track(
            "<trkpt lat=\"1\" lon=\"2\">\(children)<time>2024-05-01T10:00:00Z</time></trkpt>"
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations.map(\.mode) == [mode])
    }

    @Test("GPX 1.0 speed and course children")
    func gpx10SpeedAndCourse() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="gpsbabel" xmlns="http://www.topografix.com/GPX/1/0">
            <trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><time>2024-05-01T10:00:00Z</time><course>359.5</course><speed>13.9</speed>
            </trkpt>
            <trkpt lat="52.6" lon="13.5"><time>2024-05-01T10:00:01Z</time><course>360</course><speed>0</speed></trkpt>
            </trkseg></trk>
            </gpx>
            """

        let locations = try GPXTestDocument.parse(text).locations

        #expect(locations.map(\.speed) == [13.9, 0])
        #expect(locations.map(\.course) == [359.5, 0])
    }

    @Test("Garmin TrackPointExtension speed and course at any depth inside the point's extensions")
    func garminExtension() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="no" ?>
            <gpx xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.1" creator="eTrex 32x">
              <metadata><time>2020-01-01T00:00:00Z</time></metadata>
              <trk><extensions><gpxtpx:speed>99</gpxtpx:speed></extensions><trkseg>
                <trkpt lat="47.1" lon="8.2">
                  <ele>420.3</ele><time>2024-05-01T10:00:00Z</time>
                  <extensions>
                    <gpxtpx:TrackPointExtension>
                      <gpxtpx:atemp>21.0</gpxtpx:atemp><gpxtpx:hr>120</gpxtpx:hr>
                      <gpxtpx:speed>4.25</gpxtpx:speed><gpxtpx:course>87.5</gpxtpx:course>
                    </gpxtpx:TrackPointExtension>
                  </extensions>
                </trkpt>
              </trkseg></trk>
            </gpx>
            """

        let file = try GPXTestDocument.parse(text)

        #expect(file.rejected == [])
        #expect(
            file.locations == [
                Location(
                    time: Self.start,
                    latitude: 47.1,
                    longitude: 8.2,
                    altitudeMSL: 420.3,
                    speed: 4.25,
                    course: 87.5,
                    mode: .threeD
                )
            ]
        )
    }

    @Test("elements match by local name, whatever their namespace prefix")
    func namespacePrefixes() throws {
        let text = """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
            <g:trk><g:trkseg>
            <g:trkpt lat="1.5" lon="2.5"><g:ele>3</g:ele><g:time>2024-05-01T10:00:00Z</g:time></g:trkpt>
            </g:trkseg></g:trk>
            <g:wpt lat="4" lon="5"><g:time>2024-05-01T10:00:01Z</g:time></g:wpt>
            </g:gpx>
            """

        let locations = try GPXTestDocument.parse(text).locations

        #expect(locations.map(\.latitude) == [1.5, 4])
        #expect(locations.first?.altitudeMSL == 3)
    }

    @Test("comments, processing instructions, a DOCTYPE, CDATA and a byte order mark are read through")
    func markup() throws {
        let text = """
            \u{FEFF}<?xml version='1.0' encoding='UTF-8'?>
            <?xml-stylesheet type="text/xsl" href="gpx.xsl"?>
            <!DOCTYPE gpx [ <!ELEMENT gpx ANY> ]>
            <!-- exported -- by hand -->
            <gpx version='1.1'>
            <trk><name><![CDATA[<Morning> & "ride"]]></name><trkseg>
            <trkpt lat='10' lon='20'><!-- <time>1999-01-01T00:00:00Z</time> -->
              <time><![CDATA[2024-05-01T10:00:00Z]]></time><?garmin skip?>
              <ele>1<!-- split -->2.5</ele>
            </trkpt>
            </trkseg></trk>
            </gpx>
            <!-- trailing comment -->
            """

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations == [Location(time: Self.start, latitude: 10, longitude: 20, altitudeMSL: 12.5)])
    }

    @Test("predefined entities and character references are decoded in values")
    func references() throws {
        let text = GPXTestDocument.track(
            """
            <trkpt lat="&#52;8.5" lon="&#x31;1.25">
              <name>Tom &amp; Jerry&apos;s &lt;caf&#xE9;&gt; &quot;&#128512;&quot;</name>
              <time>2024-05-01T10:00:0&#48;Z</time><ele> &#x2D;4 </ele>
            </trkpt>
            """
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations == [Location(time: Self.start, latitude: 48.5, longitude: 11.25, altitudeMSL: -4)])
    }

    @Test("CRLF line endings read the same and count lines right")
    func crlf() throws {
        let text = GPXTestDocument.track(
            """
            <trkpt lat="1" lon="2">
              <time>2024-05-01T10:00:00Z</time>
              <ele>5</ele>
            </trkpt>
            <trkpt lat="1" lon="2"></trkpt>
            """
        )
        .replacing("\n", with: "\r\n")

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations == [Location(time: Self.start, latitude: 1, longitude: 2, altitudeMSL: 5)])
        #expect(file.rejected == [GPXRejection(line: 8, code: .noTime, reason: "no time")])
    }

    @Test("an empty gpx element is a file with no points")
    func emptyFile() throws {
        let file = try GPXTestDocument.parse("<gpx version=\"1.1\" creator=\"x\"/>")

        #expect(file == GPXFile())
    }
}
