import Testing
import WaymarkCore
import WaymarkGPSD

@Suite("Unusable GPX points are rejected with their line, the others kept")
struct GPXRejectionTests {
    @Test("rejected points are counted with their line numbers")
    func mixedFile() throws {
        let text = GPXTestDocument.track(
            """
            <trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"><ele>10</ele></trkpt>
            <trkpt lat="91" lon="2"><time>2024-05-01T10:00:02Z</time></trkpt>
            <trkpt lat="1" lon="2">
              <ele>abc</ele>
              <time>2024-05-01T10:00:03Z</time>
            </trkpt>
            <trkpt lat="1" lon="2"><time>2024-05-01T10:00:04Z</time><fix>none</fix></trkpt>
            <trkpt lat="1" lon="3"><time>2024-05-01T10:00:05Z</time></trkpt>
            """
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations.map(\.longitude) == [2, 3])
        #expect(
            file.rejected == [
                GPXRejection(line: 5, reason: "no time"),
                GPXRejection(line: 6, reason: "lat 91 is outside -90...90"),
                GPXRejection(line: 7, reason: "ele \"abc\" is not a number"),
                GPXRejection(line: 11, reason: "no fix"),
            ]
        )
        #expect(file.rejected.first?.description == "line 5: no time")
    }

    static let time = "<time>2024-05-01T10:00:00Z</time>"

    @Test(
        "each problem is named",
        arguments: [
            (#"lon="2""#, time, "no lat"),
            (#"lat="1""#, time, "no lon"),
            (#"lat="north" lon="2""#, time, #"lat "north" is not a number"#),
            (#"lat="1" lon="-180.5""#, time, "lon -180.5 is outside -180...180"),
            (#"lat="" lon="2""#, time, #"lat "" is not a number"#),
            (#"lat="0x1p3" lon="2""#, time, #"lat "0x1p3" is not a number"#),
            (#"lat="1" lon="2""#, "<time>yesterday</time>", #"time "yesterday" is not an ISO 8601 date-time"#),
            (
                #"lat="1" lon="2""#, "<time>2024-02-30T10:00Z</time>",
                #"time "2024-02-30T10:00Z" is not an ISO 8601 date-time"#
            ),
            (#"lat="1" lon="2""#, "<time/>", #"time "" is not an ISO 8601 date-time"#),
            (#"lat="1" lon="2""#, time + "<ele>NaN</ele>", #"ele "NaN" is not a number"#),
            (#"lat="1" lon="2""#, time + "<ele>1e999</ele>", #"ele "1e999" is not a number"#),
            (#"lat="1" lon="2""#, time + "<hdop>-1</hdop>", "hdop -1 is negative"),
            (#"lat="1" lon="2""#, time + "<vdop>1,5</vdop>", #"vdop "1,5" is not a number"#),
            (#"lat="1" lon="2""#, time + "<speed>fast</speed>", #"speed "fast" is not a number"#),
            (#"lat="1" lon="2""#, time + "<course>400</course>", "course 400 is outside 0...360"),
            (#"lat="1" lon="2""#, time + "<fix>4d</fix>", #"fix "4d" is not none, 2d, 3d, dgps or pps"#),
            (#"lat="1" lon="2""#, "<ele>1</ele><fix>none</fix>", "no time"),
            (
                #"lat="1" lon="2""#, time + "<ele>1234567890123456789012345x</ele>",
                #"ele "123456789012345678901234…" is not a number"#
            ),
        ]
    )
    func problem(attributes: String, children: String, reason: String) throws {
        let file = try GPXTestDocument.parse(GPXTestDocument.track("<trkpt \(attributes)>\(children)</trkpt>"))

        #expect(file.locations == [])
        #expect(file.rejected == [GPXRejection(line: 4, reason: reason)])
    }

    @Test("a point outside its container is rejected, not read")
    func misplacedPoints() throws {
        let text = GPXTestDocument.gpx(
            """
            <trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>
            <trk><rtept lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></rtept></trk>
            <rte><wpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></wpt></rte>
            """
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations == [])
        #expect(
            file.rejected == [
                GPXRejection(line: 3, reason: "<trkpt> outside <trkseg>"),
                GPXRejection(line: 4, reason: "<rtept> outside <rte>"),
                GPXRejection(line: 5, reason: "<wpt> outside <gpx>"),
            ]
        )
    }

    @Test("a field given twice keeps its first value")
    func duplicateField() throws {
        let text = GPXTestDocument.track(
            #"<trkpt lat="1" lon="2">"# + Self.time + "<time>junk</time><ele>1</ele><ele>2</ele></trkpt>"
        )

        let file = try GPXTestDocument.parse(text)

        #expect(file.locations.map(\.altitudeMSL) == [1])
        #expect(file.rejected == [])
    }
}
