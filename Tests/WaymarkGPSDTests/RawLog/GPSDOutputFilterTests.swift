import Testing

@testable import WaymarkGPSD

/// The lines of a private gpsd's output that make a raw log's capture, and where it ends.
@Suite("What of gpsd's output a raw log's capture keeps")
struct GPSDOutputFilterTests {
    static let device = "tcp://127.0.0.1:40000"

    /// A line gpsd sends, the verdict, and what the capture gets of it (nil: nothing).
    static let cases: [(line: String, verdict: GPSDOutputFilter.Verdict, kept: String?)] = [
        (#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#, .dropped, nil),
        (#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"tcp://127.0.0.1:40000"}]}"#, .dropped, nil),
        (#"{"class":"WATCH","enable":true,"json":true,"nmea":true}"#, .dropped, nil),
        (
            #"{"class":"DEVICE","path":"tcp://127.0.0.1:40000","driver":"NMEA0183","activated":"2026-11-29T08:25:29.109Z"}"#,
            .dropped, nil
        ),
        (
            "$GPGGA,095305.787,2712.6420,S,15303.1186,E,1,04,2.1,24.1,M,,,,0000*0E\r", .kept,
            "$GPGGA,095305.787,2712.6420,S,15303.1186,E,1,04,2.1,24.1,M,,,,0000*0E\r"
        ),
        (
            #"{"class":"TPV","device":"tcp://127.0.0.1:40000","mode":3,"time":"2026-11-22T09:53:05.787Z"}"#, .kept,
            #"{"class":"TPV","mode":3,"time":"2026-11-22T09:53:05.787Z"}"#
        ),
        (
            #"{"class":"SKY","device":"tcp://127.0.0.1:40000","satellites":[]}"#, .kept,
            #"{"class":"SKY","satellites":[]}"#
        ),
        // Another device is not the feed: kept as it is.
        (
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#, .kept,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#
        ),
        (
            #"{"class":"ERROR","message":"unrecognized request"}"#, .kept,
            #"{"class":"ERROR","message":"unrecognized request"}"#
        ),
        (#"{"class":"DEVICE","path":"tcp://127.0.0.1:40000","activated":0}"#, .end, nil),
    ]

    @Test("each line: dropped, kept without the feed's name, or the end")
    func lines() {
        var filter = GPSDOutputFilter(devicePath: Self.device)
        var expected = ""
        var reports = 0
        for (line, verdict, kept) in Self.cases {
            #expect(filter.take(ArraySlice(line.utf8)) == verdict, "\(line)")
            if let kept {
                expected += kept + "\n"
                if kept.hasPrefix("{") { reports += 1 }
            }
            #expect(String(decoding: filter.capture, as: UTF8.self) == expected, "after \(line)")
        }
        #expect(filter.reports == reports)
        #expect(filter.release == "3.22")
    }
}
