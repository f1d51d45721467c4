import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkGPSD

/// The builtin decoder gives what libgps's `gps_unpack` gives, to the bit, or leaves the line to it.
@Suite("The builtin decoder equals gps_unpack")
struct BuiltinDecoderTests {
    /// Both decoders on one line. `data` is shared along a file, as in a replay.
    static func decode(
        _ line: String,
        libgps data: GPSDData
    ) -> (builtin: BuiltinDecoder.Fields?, libgps: GPSDMessage) {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { (BuiltinDecoder.fields(of: $0), data.unpack(line: $0)) }
    }

    /// Equal to the bit, in the fields as libgps leaves them in `gps_data_t` (NaN, flags, seconds and
    /// nanoseconds) and in the message mapped from them: `String(reflecting:)` prints every `Double` in the
    /// shortest form that reads back to it, so -0.0 and 0.0, or two neighbours, differ. Call it right after
    /// ``decode(_:libgps:)``, while `data` holds the line.
    static func expectSame(_ builtin: BuiltinDecoder.Fields, _ libgps: GPSDMessage, in data: GPSDData, _ line: String) {
        switch builtin {
        case .tpv(let fields): #expect(String(reflecting: fields) == String(reflecting: data.tpvFields()), "\(line)")
        case .sky(let fields): #expect(String(reflecting: fields) == String(reflecting: data.skyFields()), "\(line)")
        }
        #expect(String(reflecting: builtin.message) == String(reflecting: libgps), "\(line)")
    }

    static let captures = try! FileManager.default.contentsOfDirectory(atPath: Fixtures.gpsdLog(""))
        .filter { $0.hasSuffix(".chk") }.sorted()

    @Test("every TPV and SKY line of the fixture captures", arguments: captures)
    func fixtureLines(capture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog(capture))))
        let data = GPSDData()
        var decoded = 0
        var leftToLibgps: [String] = []
        // As replay reads them: lines end at "\n", carriage returns before it are dropped.
        let lines = bytes.split(separator: UInt8(ascii: "\n")).map { line in
            String(decoding: line.reversed().drop { $0 == UInt8(ascii: "\r") }.reversed(), as: UTF8.self)
        }
        for line in lines {
            let (builtin, libgps) = Self.decode(line, libgps: data)
            let isReport = line.hasPrefix(#"{"class":"TPV""#) || line.hasPrefix(#"{"class":"SKY""#)
            guard let builtin else {
                if isReport { leftToLibgps.append(line) }
                continue
            }
            #expect(isReport, "only TPV and SKY are decoded: \(line)")
            Self.expectSame(builtin, libgps, in: data, line)
            decoded += 1
        }
        // gpsd writes every TPV and SKY of these captures in the plain shape: none may fall back, or the
        // comparison above would prove little.
        #expect(
            leftToLibgps.isEmpty,
            "\(capture): \(leftToLibgps.count) left to libgps, first \(leftToLibgps.first ?? "")"
        )
        #expect(decoded > 0 || capture == "tnt-revolution.log.chk", "\(capture) has TPV or SKY lines")
    }

    @Test("20,000 random TPV lines: numbers as safe_atof computes them, times as iso8601_to_timespec")
    func randomTPV() {
        var random = SplitMix64(seed: 0x5AFE_A70F)
        let data = GPSDData()
        var differFromCorrectRounding = 0
        for _ in 0..<20_000 {
            let (line, numbers) = RandomReport.tpv(using: &random)
            let (builtin, libgps) = Self.decode(line, libgps: data)
            guard let builtin else {
                Issue.record("a plain TPV fell back to gps_unpack: \(line)")
                continue
            }
            Self.expectSame(builtin, libgps, in: data, line)
            differFromCorrectRounding += numbers.count { Double($0) != RandomReport.libgpsValue(of: $0) }
        }
        // The builtin values equal libgps's (above) and these differ from the correctly rounded ones: libgps
        // does not round numbers of 16 to 18 digits correctly, and a decoder that did would fail here.
        #expect(differFromCorrectRounding > 100)
    }

    @Test("5,000 random SKY lines: satellites counted as libgps counts them")
    func randomSky() {
        var random = SplitMix64(seed: 0x5C1E_5A75)
        let data = GPSDData()
        for _ in 0..<5_000 {
            let line = RandomReport.sky(using: &random)
            let (builtin, libgps) = Self.decode(line, libgps: data)
            guard let builtin else {
                Issue.record("a plain SKY fell back to gps_unpack: \(line)")
                continue
            }
            Self.expectSame(builtin, libgps, in: data, line)
        }
    }

    /// Lines outside the plain shape, each left to `gps_unpack` (which may read them differently).
    static let leftToLibgps = [
        #"{"class":"TPV", "mode":3}"#,  // white space
        #"{"class":"TPV","mode":3} "#,
        #"{"class":"TPV","lat":4.9e1}"#,  // exponent
        #"{"class":"TPV","lat":1234567890.123456789}"#,  // 19 digits
        #"{"class":"TPV","lat":05.5}"#,  // leading zero
        #"{"class":"TPV","lat":5.}"#,
        #"{"class":"TPV","lat":.5}"#,
        #"{"class":"TPV","lat":+5}"#,
        #"{"class":"TPV","lat":-}"#,
        #"{"class":"TPV","lat":"49.0"}"#,
        #"{"class":"TPV","lat":null}"#,
        #"{"class":"TPV","mode":3.0}"#,
        #"{"class":"TPV","device":"/dev/tty\u0041"}"#,  // escape
        #"{"class":"TPV","datum":"WGS84"}"#,  // a key not known here
        #"{"class":"TPV","ecefx":1.0}"#,
        #"{"class":"TPV","mode":2}{"class":"TPV","mode":3}"#,  // two objects
        #"{"class":"TPV","mode":3"#,  // cut
        #"{"mode":3,"class":"TPV"}"#,  // class not first
        #"{"class":"TPV","time":"2020-06-30T23:59:60.000Z"}"#,  // leap second
        #"{"class":"TPV","time":"2020-06-30T23:59:59.0000000000000001Z"}"#,  // 16 fraction digits
        #"{"class":"TPV","time":"2020-06-30T23:59:59"}"#,  // no Z
        #"{"class":"TPV","time":"2020-06-30T23:59:59.Z"}"#,
        #"{"class":"TPV","time":"2020-6-30T23:59:59Z"}"#,
        #"{"class":"TPV","time":"2020-02-30T24:00:00Z"}"#,
        #"{"class":"TPV","time":1593561599}"#,
        #"{"class":"SKY","satellites":[{"PRN":-3,"used":true}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":3,"used":1}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":3,"qual":7}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":3},]}"#,
        #"{"class":"SKY","satellites":[{}]}"#,
        #"{"class":"SKY","satellites":[\#(Array(repeating: #"{"PRN":1}"#, count: 141).joined(separator: ","))]}"#,
        #"{"class":"SKY","nSat":-1}"#,
        // Twenty digits: an integer this long overflowed while it was read (found by `scripts/fuzz.sh gpsd-builtin`).
        #"{"class":"TPV","mode":99999999999999999999}"#,
        #"{"class":"SKY","satellites":[{"PRN":-99999999999999999999}]}"#,
        // A second array: libgps overwrites the first one's entries only as far as the second goes.
        #"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":true}],"satellites":[{"PRN":3}]}"#,
        #"{"class":"ATT","heading":12.5}"#,  // other classes
        #"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":0}"#,
        #"{"class":"TPVX","mode":3}"#,
        "$GPRMC,165744,A,4901.5940,N,01203.9163,E,0.0,131.9,110410,1.6,E,A*1F",
        "",
    ]

    @Test("lines outside the plain shape go to gps_unpack", arguments: leftToLibgps)
    func fallsBack(line: String) {
        let (builtin, _) = Self.decode(line, libgps: GPSDData())
        #expect(builtin == nil)
    }

    @Test("a line longer than the 10,240 bytes of a live read is unparsable with either decoder")
    func tooLong() {
        let satellite =
            #"{"PRN":1,"el":12.0,"az":123.0,"ss":40.0,"used":true,"gnssid":0,"svid":1,"sigid":0,"health":1}"#
        let line = #"{"class":"SKY","satellites":[\#(Array(repeating: satellite, count: 120).joined(separator: ","))]}"#
        #expect(line.utf8.count > 10_240)
        let (builtin, libgps) = Self.decode(line, libgps: GPSDData())
        #expect(builtin == nil)
        #expect(libgps == .unparsable)
    }

    @Test("plain edge cases equal gps_unpack")
    func plainEdgeCases() {
        let lines = [
            #"{"class":"TPV"}"#,
            #"{"class":"TPV","mode":0}"#,
            #"{"class":"TPV","mode":1,"time":"1970-01-01T00:00:00.5Z"}"#,  // tv_sec 0: no TIME_SET
            #"{"class":"TPV","mode":3,"lat":-0.0,"lon":-0,"track":-0.0,"speed":0}"#,
            #"{"class":"TPV","mode":3,"lat":49.0,"track":360.0,"speed":1.5}"#,  // no lon: no LATLON_SET
            #"{"class":"TPV","mode":3,"lon":12.0,"track":361.0,"speed":1.5,"eps":-1}"#,
            #"{"class":"TPV","mode":3,"lat":1.5,"lat":2.5,"lon":3}"#,  // the later one wins
            #"{"class":"TPV","mode":9,"time":"2024-02-31T12:00:00Z"}"#,  // 31 February, as mkgmtime counts it
            #"{"class":"TPV","time":"2000-02-29T23:59:59.999999999999999Z"}"#,  // rounds up to 1e9 ns
            #"{"class":"TPV","time":"1900-03-01T00:00:00.123Z","lat":0.00000000000000001,"lon":999999999999999999}"#,
            #"{"class":"SKY"}"#,
            #"{"class":"SKY","hdop":1.2}"#,
            #"{"class":"SKY","satellites":[]}"#,
            #"{"class":"SKY","satellites":[{"PRN":0,"used":true},{"PRN":3,"used":false},{"used":true}]}"#,
            #"{"class":"SKY","satellites":[\#(Array(repeating: #"{"PRN":1}"#, count: 140).joined(separator: ","))]}"#,
        ]
        let data = GPSDData()
        for line in lines {
            let (builtin, libgps) = Self.decode(line, libgps: data)
            guard let builtin else {
                Issue.record("fell back: \(line)")
                continue
            }
            Self.expectSame(builtin, libgps, in: data, line)
        }
    }
}
