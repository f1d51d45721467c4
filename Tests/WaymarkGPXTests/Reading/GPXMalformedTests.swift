import Testing
import WaymarkGPX
import WaymarkTestSupport

@Suite("Malformed XML is an error that names the file and the line")
struct GPXMalformedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var lines: [String]
        /// The line the error must name.
        var line: Int
        var message: String
        var code = GPXError.Code.malformedXML

        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(
            lines: [
                #"<?xml version="1.0"?>"#, "<gpx>", "<trk><trkseg>", #"<trkpt lat="1" lon="2">"#,
                "<time>2024-05-01T10:00:00Z</time>", "</trkseg></trk>", "</gpx>",
            ],
            line: 6,
            message: "expected </trkpt>, found </trkseg>"
        ),
        Case(
            lines: ["<gpx>", "<trk>", "<trkseg>", ""],
            line: 3,
            message: "<trkseg> is not closed: the file ends before </trkseg>"
        ),
        Case(lines: ["<gpx>", "<trk", ""], line: 2, message: "<trk is not closed by >"),
        Case(lines: ["<gpx>", "<trk name='x'", "<trkseg>"], line: 2, message: "<trk is not closed by >"),
        Case(lines: ["<gpx>", "</trk>", "</gpx>"], line: 2, message: "expected </gpx>, found </trk>"),
        Case(lines: ["<gpx>", "</gpx>", "</gpx>"], line: 3, message: "unexpected </gpx>: no element is open"),
        Case(
            lines: ["<gpx>", "<!-- a comment", "that never", "ends", "</gpx>"],
            line: 2,
            message: "comment is not closed by -->"
        ),
        Case(
            lines: ["<gpx>", "<name><![CDATA[open", "</name>", "</gpx>"],
            line: 2,
            message: "CDATA section is not closed by ]]>"
        ),
        Case(lines: ["<gpx>", "<?garmin never closed >", "</gpx>"], line: 2, message: "<?garmin is not closed by ?>"),
        Case(
            lines: ["<!DOCTYPE gpx [", "<!ENTITY x 'y'>", "</gpx>"],
            line: 1,
            message: "<!DOCTYPE is not closed by >"
        ),
        Case(
            lines: ["<gpx>", "<name>caf&eacute;</name>", "</gpx>"],
            line: 2,
            message: "unknown entity &eacute;; XML without a DTD knows only &lt; &gt; &amp; &apos; &quot;"
        ),
        Case(
            lines: ["<gpx>", "<name>Tom & Jerry</name>", "</gpx>"],
            line: 2,
            message: "\"&\" must start a reference such as &amp; &lt; or &#39;; write a literal & as &amp;"
        ),
        Case(
            lines: ["<gpx>", "", "<name>&#0;</name>", "</gpx>"],
            line: 3,
            message: "&#0; is not a character XML allows"
        ),
        Case(
            lines: ["<gpx>", "<name>&#xD800;</name>", "</gpx>"],
            line: 2,
            message: "&#xD800; is not a character XML allows"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1&2" lon="2"/>"#, "</gpx>"],
            line: 2,
            message: "\"&\" must start a reference such as &amp; &lt; or &#39;; write a literal & as &amp;"
        ),
        Case(
            lines: ["<gpx>", "<wpt lat=1 lon=2/>", "</gpx>"],
            line: 2,
            message: "the value of attribute lat of <wpt> must be in quotes"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1"lon="2"/>"#, "</gpx>"],
            line: 2,
            message: "expected a space before the next attribute of <wpt>"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1" lat="2"/>"#, "</gpx>"],
            line: 2,
            message: "attribute lat of <wpt> is given twice"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat "1"/>"#, "</gpx>"],
            line: 2,
            message: "expected = after attribute lat of <wpt>"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1 lon="2">"#, "</wpt>", "</gpx>"],
            line: 2,
            message: "expected a space before the next attribute of <wpt>"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1>"#, "<name>x</name>", "</wpt>", "</gpx>"],
            line: 3,
            message: "\"<\" in the value of attribute lat of <wpt>; is a closing quote missing?"
        ),
        Case(
            lines: ["<gpx>", #"<wpt lat="1"#],
            line: 2,
            message: "the value of attribute lat of <wpt> has no closing quote"
        ),
        Case(lines: ["<gpx>", "<wpt @/>", "</gpx>"], line: 2, message: "unexpected \"@\" in <wpt>"),
        Case(lines: ["<gpx>", "<1wpt/>", "</gpx>"], line: 2, message: "expected an element name after <"),
        Case(lines: ["<gpx>", "< wpt/>", "</gpx>"], line: 2, message: "expected an element name after <"),
        Case(lines: ["<gpx>", "<wpt/ >", "</gpx>"], line: 2, message: "expected /> to end <wpt"),
        Case(lines: ["<gpx>", "</ gpx>"], line: 2, message: "expected an element name after </"),
        Case(lines: ["<gpx>", "</gpx x>"], line: 2, message: "expected > to end </gpx"),
        Case(lines: ["GPX export", "<gpx/>"], line: 1, message: "text before the root element"),
        Case(lines: ["<gpx/>", "", "  trailing"], line: 3, message: "text after the root element"),
        Case(lines: ["<gpx/>", "<gpx/>"], line: 2, message: "second root element <gpx>; a document has one root"),
        Case(lines: ["<gpx/>", "<![CDATA[x]]>"], line: 2, message: "CDATA section outside the root element"),
        Case(
            lines: ["<gpx>", "<name>a ]]> b</name>", "</gpx>"],
            line: 2,
            message: "]]> is not allowed in text; write ]]&gt;"
        ),
        Case(
            lines: ["", #"<?xml version="1.0"?>"#, "<gpx/>"],
            line: 2,
            message: "the <?xml …?> declaration must be the first thing in the file"
        ),
        Case(
            lines: ["<gpx>", "<!ELEMENT gpx ANY>", "</gpx>"],
            line: 2,
            message: "unexpected markup: expected <!--, <![CDATA[ or <!DOCTYPE after <!"
        ),
        Case(
            lines: ["<gpx>", "<!DOCTYPE gpx>", "</gpx>"],
            line: 2,
            message: "<!DOCTYPE must come before the root element"
        ),
        Case(
            lines: ["<!DOCTYPE gpx>", "<!DOCTYPE gpx>", "<gpx/>"],
            line: 2,
            message: "second <!DOCTYPE; a document has at most one"
        ),
        Case(
            lines: ["<?xml version=\"1.0\"?>", "<!-- nothing -->", ""],
            line: 3,
            message: "no root element: the file holds no XML element"
        ),
        Case(lines: [""], line: 1, message: "no root element: the file holds no XML element"),
        Case(
            lines: [#"<?xml version="1.0"?>"#, "", #"<kml xmlns="http://www.opengis.net/kml/2.2"/>"#],
            line: 3,
            message: "the root element is <kml>, not <gpx>: this is not a GPX file",
            code: .notGPX
        ),
    ]

    @Test("each error names the file and the line", arguments: cases)
    func malformed(_ malformed: Case) {
        let text = malformed.lines.joined(separator: "\n")

        let error = #expect(throws: GPXError.self) {
            try GPXFile.parse(Array(text.utf8), fileName: "route.gpx")
        }

        #expect(error?.description == "route.gpx:\(malformed.line): \(malformed.message)")
        #expect(error?.file == "route.gpx")
        #expect(error?.line == malformed.line)
        #expect(error?.code == malformed.code)
    }

    @Test("lines are counted across CRLF and lone CR line ends", arguments: ["\r\n", "\r"])
    func lineEnds(separator: String) {
        let text = ["<gpx>", "<trk>", "<trkseg>", "</trk>", "</gpx>"].joined(separator: separator)

        let error = #expect(throws: GPXError.self) {
            try GPXFile.parse(Array(text.utf8), fileName: "route.gpx")
        }

        #expect(error?.description == "route.gpx:4: expected </trkseg>, found </trk>")
    }

    @Test("a UTF-16 file is refused with a way out")
    func utf16() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("<gpx/>".utf8).flatMap { [$0, 0] }

        let error = #expect(throws: GPXError.self) {
            try GPXFile.parse(bytes, fileName: "route.gpx")
        }

        #expect(error?.description == "route.gpx:1: the file is UTF-16; convert it to UTF-8")
    }

    @Test("a truncated recording names the innermost open element and its line")
    func truncated() throws {
        let text = GPXTestDocument.track(
            (0..<50).map { "<trkpt lat=\"1\" lon=\"\($0)\"><time>2024-05-01T10:00:00Z</time></trkpt>" }
                .joined(separator: "\n")
        )
        let cut = try #require(text.firstRange(of: "lon=\"29\"><time>2024"))

        let error = #expect(throws: GPXError.self) {
            try GPXFile.parse(Array(text[..<cut.upperBound].utf8), fileName: "route.gpx")
        }

        #expect(error?.description == "route.gpx:33: <time> is not closed: the file ends before </time>")
    }
}
