import Testing
import WaymarkCore
import WaymarkGPX
import WaymarkTestSupport

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
                GPXRejection(line: 5, code: .noTime, reason: "no time"),
                GPXRejection(line: 6, code: .invalidPosition, reason: "lat 91 is outside -90...90"),
                GPXRejection(line: 7, code: .badValue, reason: "ele \"abc\" is not a number"),
                GPXRejection(line: 11, code: .noFix, reason: "no fix"),
            ]
        )
        #expect(file.rejected.first?.description == "line 5: no time")
    }

    static let time = "<time>2024-05-01T10:00:00Z</time>"

    @Test(
        "each problem is named",
        arguments: [
            (#"lon="2""#, time, Rejection.invalidPosition, "no lat"),
            (#"lat="1""#, time, .invalidPosition, "no lon"),
            (#"lat="north" lon="2""#, time, .invalidPosition, #"lat "north" is not a number"#),
            (#"lat="1" lon="-180.5""#, time, .invalidPosition, "lon -180.5 is outside -180...180"),
            (#"lat="" lon="2""#, time, .invalidPosition, #"lat "" is not a number"#),
            (#"lat="0x1p3" lon="2""#, time, .invalidPosition, #"lat "0x1p3" is not a number"#),
            (
                #"lat="1" lon="2""#, "<time>yesterday</time>", .badTime,
                #"time "yesterday" is not an ISO 8601 date-time"#
            ),
            (
                #"lat="1" lon="2""#, "<time>2024-02-30T10:00Z</time>", .badTime,
                #"time "2024-02-30T10:00Z" is not an ISO 8601 date-time"#
            ),
            (#"lat="1" lon="2""#, "<time/>", .badTime, #"time "" is not an ISO 8601 date-time"#),
            (#"lat="1" lon="2""#, time + "<ele>NaN</ele>", .badValue, #"ele "NaN" is not a number"#),
            (#"lat="1" lon="2""#, time + "<ele>1e999</ele>", .badValue, #"ele "1e999" is not a number"#),
            (#"lat="1" lon="2""#, time + "<hdop>-1</hdop>", .badValue, "hdop -1 is negative"),
            (#"lat="1" lon="2""#, time + "<vdop>1,5</vdop>", .badValue, #"vdop "1,5" is not a number"#),
            (#"lat="1" lon="2""#, time + "<speed>fast</speed>", .badValue, #"speed "fast" is not a number"#),
            (#"lat="1" lon="2""#, time + "<course>400</course>", .badValue, "course 400 is outside 0...360"),
            (#"lat="1" lon="2""#, time + "<fix>4d</fix>", .badFix, #"fix "4d" is not none, 2d, 3d, dgps or pps"#),
            (#"lat="1" lon="2""#, time + "<fix>none</fix>", .noFix, "no fix"),
            (#"lat="1" lon="2""#, "<ele>1</ele><fix>none</fix>", .noTime, "no time"),
            (#"lat="1" lon="2""#, "<fix></fix>", .noTime, "no time"),
            (
                #"lat="1" lon="2""#, time + "<ele>1234567890123456789012345x</ele>", .badValue,
                #"ele "123456789012345678901234…" is not a number"#
            ),
        ] as [(String, String, Rejection, String)]
    )
    func problem(attributes: String, children: String, code: Rejection, reason: String) throws {
        let file = try GPXTestDocument.parse(GPXTestDocument.track("<trkpt \(attributes)>\(children)</trkpt>"))

        #expect(file.locations == [])
        #expect(file.rejected == [GPXRejection(line: 4, code: code, reason: reason)])
    }

    @Test("an empty <fix></fix> is absent: the point is 2D without an elevation, 3D with one")
    func emptyFix() throws {
        let time = Self.time
        let file = try GPXTestDocument.parse(
            GPXTestDocument.track(
                #"<trkpt lat="1" lon="2">\#(time)<fix></fix></trkpt><trkpt lat="1" lon="2">\#(time)<ele>5</ele><fix> </fix></trkpt>"#
            )
        )
        #expect(file.rejected == [])
        #expect(file.locations.map(\.mode) == [.twoD, .threeD])
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
                GPXRejection(line: 3, code: .misplacedPoint, reason: "<trkpt> outside <trkseg>"),
                GPXRejection(line: 4, code: .misplacedPoint, reason: "<rtept> outside <rte>"),
                GPXRejection(line: 5, code: .misplacedPoint, reason: "<wpt> outside <gpx>"),
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
