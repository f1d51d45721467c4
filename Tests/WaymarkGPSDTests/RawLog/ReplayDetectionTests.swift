import Testing

@testable import WaymarkGPSD

/// How replay tells a gpsd JSON capture from what may be a raw receiver log, before gpsd is asked.
@Suite("A capture, or what may be a raw log")
struct ReplayDetectionTests {
    /// The file's bytes, and nil for a capture or the NMEA sentences counted in what may be a raw log.
    static let cases: [(bytes: [UInt8], sentences: Int?)] = [
        (Array(#"{"class":"VERSION","release":"3.22"}"#.utf8), nil),
        (Array("$GPGGA,1*00\r\n\u{FEFF}  {\"class\":\"TPV\",\"mode\":1}\n".utf8), nil),
        // Written by another tool: a space after the brace, or after the colon (Python's json.dumps).
        (Array(#"{ "class" : "TPV"}"#.utf8), nil),
        (Array(#"{"class": "TPV", "mode": 1}"#.utf8), nil),
        (Array("$GPRMC,1*00\r\n$GPGGA,2*00\r\n!AIVDM,3*00\r\n".utf8), 3),
        // Binary: newline and brace bytes inside a frame are no JSON line.
        ([0xB5, 0x62, 0x01, 0x07, 0x0A, 0x7B, 0x00, 0x0A, 0x7B, 0x22, 0x63, 0x22, 0xFF], 0),
        (Array("{\"mode\":1}\n{}\n".utf8), 0),
    ]

    @Test("a line that starts with a gpsd object makes a capture; anything else may be a raw log")
    func cases() throws {
        for (bytes, sentences) in Self.cases {
            #expect(try Replay.sentencesUnlessCapture(bytes, "f") == sentences, "\(bytes)")
        }
    }

    @Test("white space alone is refused, before any gpsd")
    func blank() {
        #expect(throws: ReplayError.self) { try Replay.sentencesUnlessCapture(Array(" \r\n\t\n".utf8), "f") }
    }
}
