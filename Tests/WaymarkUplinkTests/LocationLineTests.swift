import Testing
import WaymarkCore
import WaymarkGPX
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkUplink

/// A trip's track points read straight from the spool's location lines: the same points, and the same errors, as
/// decoding every line with `EventLine`.
@Suite struct LocationLineTests {
    static let time = Timestamp(seconds: 1_890_320_264)
    static let head = #"{"type":"location","seq":3,"time":"2029-11-25T16:57:44.000Z""#
    static let encoded =
        head
        + #","recv":"2026-11-29T20:39:50.404Z","device":"vm","lat":49.026566667,"lon":12.065271667,"alt_hae":383.3,"#
        + #""alt_msl":336.7,"h_acc":19,"v_acc":34.5,"speed":0,"speed_acc":12.12,"course":131.9,"course_acc":5,"mode":3}"#

    /// The point that decoding `line` with `EventLine` gives, or the error it throws.
    static func decoded(_ line: String) -> Result<TrackPoint?, EventLineError> {
        Result { () throws(EventLineError) in TrackPoint(try EventLine(Array(line.utf8))) }
    }

    static func scanned(_ line: String) -> TrackPoint? { LocationLine.trackPoint(Array(line.utf8)) }

    static func segments(_ lines: [String], kind: StoredEvent.Kind = .location) throws -> [[TrackPoint]] {
        let events = lines.enumerated().map { index, line in
            StoredEvent(seq: UInt64(index + 1), kind: kind, time: time, line: Array(line.utf8))
        }
        return try TripTrack.segments(of: events, through: time)
    }

    /// A location line of `members` after the encoder's first three.
    static func line(_ members: String) -> String { head + "," + members + "}" }

    /// The same, with `lat` and `lon` first.
    static func located(_ members: String) -> String { line(#""lat":49,"lon":12,"# + members) }

    @Test(
        "a location line as the encoder writes it gives EventLine's point",
        arguments: [
            (encoded, 336.7, 0.0, 131.9),
            (line(#""lat":-33.5,"lon":-70.25,"mode":2"#), nil, nil, nil),
            (line(#""lat":0,"lon":-180,"alt_msl":-12,"speed":1e-7,"course":359.9,"mode":3"#), -12, 1e-7, 359.9),
            (
                #"{"mode":3,"lon":12,"course":90,"lat":49,"time":"2029-11-25T16:57:44Z","seq":0,"type":"location"}"#,
                nil, nil, 90
            ),
            // Values EventLine keeps as they are, and a GPX writer skips: a latitude out of range, a huge altitude.
            (line(#""lat":91.5,"lon":12,"alt_msl":1E+300,"speed":-0.0,"mode":3"#), 1e300, -0.0, nil),
            // More digits than a Double holds: the standard library's conversion, as EventLine's.
            (line(#""lat":49.12345678901234567890123,"lon":12,"mode":3"#), nil, nil, nil),
        ] as [(String, Double?, Double?, Double?)]
    )
    func accepted(line: String, elevation: Double?, speed: Double?, course: Double?) throws {
        let point = try #require(Self.scanned(line))
        #expect(point == (try Self.decoded(line).get()))
        #expect(point.elevation == elevation && point.speed == speed && point.course == course)
        #expect(point.time == Timestamp(iso8601: "2029-11-25T16:57:44.000Z"))
        #expect(try Self.segments([line]) == [[point]])
    }

    /// Lines the scanner leaves to `EventLine`: malformed ones, and well-formed ones outside the encoder's shape.
    static let refusedLines: [String] = [
        // Truncated.
        "", "{", String(encoded.dropLast()), String(encoded.dropLast(2)), head, head + #","lat":49,"lon":"#,
        head + #","lat":49,"lon":12,"device":"vm"#, head + #","lat":49,"lon":12."#,
        // Missing members.
        #"{"seq":3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":3,"lat":49,"lon":12}"#,
        line(#""lon":12,"mode":3"#), line(#""lat":49,"mode":3"#), "{}",
        // Wrong types and values.
        line(#""lat":"49","lon":12"#), line(#""lat":49,"lon":true"#), line(#""lat":49,"lon":null"#),
        located(#""alt_msl":"high""#), located(#""speed":[1]"#), located(#""device":7"#), located(#""mode":"3""#),
        #"{"type":"location","seq":"3","time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":3.5,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":-3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":03,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":18446744073709551616,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":"location","seq":3,"time":1890320264,"lat":49,"lon":12}"#,
        #"{"type":"location","seq":3,"time":"2029-13-25T16:57:44.000Z","lat":49,"lon":12}"#,
        #"{"type":7,"seq":3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        line(#""lat":49,"lon":012"#), line(#""lat":49,"lon":12e"#), line(#""lat":49,"lon":-"#),
        line(#""lat":49,"lon":.5"#), line(#""lat":49,"lon":NaN"#),
        line(#""lat":49,"lon":1"# + String(repeating: "0", count: 600)),
        // Escaped and non-ASCII strings, control characters, a bad escape.
        line(#""device":"v\"m","lat":49,"lon":12"#), line(#""device":"v\u006d","lat":49,"lon":12"#),
        line(#""device":"Zürich","lat":49,"lon":12"#), line(#""\u006cat":49,"lon":12"#),
        line("\"device\":\"v\tm\",\"lat\":49,\"lon\":12"), line(#""device":"v\q","lat":49,"lon":12"#),
        #"{"type":"loc\u0061tion","seq":3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        // Well-formed, but not the encoder's shape: whitespace, a duplicate, an unknown or nested member, another
        // type.
        #"{"type":"location", "seq":3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12}"#,
        " " + line(#""lat":49,"lon":12"#), line(#""lat":49,"lon":12"#) + " ", line(#""lat":49,"lon":12"#) + "x",
        located(#""lat":50"#), located(#""seq":4"#), located(#""place":{"name":"Kelheim"}"#),
        located(#""heading":90"#),
        #"{"type":"driving","seq":3,"time":"2029-11-25T16:57:44.000Z","lat":49,"lon":12,"kind":"harsh_braking"}"#,
        #"["type","location"]"#, line(#""lat":49,"lon":12,"#), line(#","lat":49,"lon":12"#),
    ]

    @Test("any other line is left to EventLine: its point, or its error, as before", arguments: refusedLines)
    func refused(line: String) {
        #expect(Self.scanned(line) == nil)
        switch Self.decoded(line) {
        case .success(let point):
            #expect((try? Self.segments([line])) == point.map { [[$0]] } ?? [])
        case .failure(let error):
            #expect(throws: error) { try Self.segments([line]) }
        }
    }

    @Test("a line cut short anywhere is never a point: the track fails with EventLine's error")
    func truncated() {
        let line = Array(Self.encoded.utf8)
        for count in 0..<line.count {
            let prefix = String(decoding: line[..<count], as: UTF8.self)
            #expect(LocationLine.trackPoint(Array(line[..<count])) == nil, "\(prefix)")
            #expect(throws: EventLineError.self, "\(prefix)") { try Self.segments([prefix]) }
        }
    }

    @Test("a location line the encoder writes gives EventLine's point, to the last bit of each number")
    func encoderLines() throws {
        var random = SplitMix64(seed: 44)
        let encoder = EventEncoder(deviceID: "board 7")
        for index in 0..<2_000 {
            // Every bit of the significand, magnitudes from 1e-9 up, and the extremes of each range.
            let scale = [1e-9, 1e-3, 1, 1e3, 1e9][index % 5]
            func any(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
            let location = Location(
                time: Self.time.advanced(by: .milliseconds(index * 1_037)),
                latitude: index == 0 ? -90 : any(-90...90),
                longitude: index == 0 ? 180 : any(-180...180),
                altitudeHAE: any(-500...9_000),
                altitudeMSL: index % 7 == 0 ? nil : any(-1...1) * scale,
                horizontalAccuracy: any(0...100),
                speed: index % 3 == 0 ? nil : any(0...1) * scale,
                speedAccuracy: any(0...5),
                course: index % 4 == 0 ? nil : any(0...359.999),
                mode: index % 2 == 0 ? .threeD : .twoD
            )
            let event = Event(
                seq: UInt64(index + 1),
                time: location.time,
                received: Self.time,
                kind: .location(location)
            )
            let line = StoredEvent.line(event, encoder: encoder)
            let decoded = TrackPoint(try EventLine(line))
            #expect(decoded != nil)
            let point = LocationLine.trackPoint(line)
            #expect(point == decoded, "\(String(decoding: line, as: UTF8.self))")
            // To the last bit: each Double's shortest text tells -0.0 from 0.0, which == does not.
            #expect(point.map { "\($0)" } == decoded.map { "\($0)" })
        }
    }

    @Test("a line with bytes changed, dropped or repeated is never a point that EventLine would not make")
    func mutated() throws {
        var random = SplitMix64(seed: 1_044)
        let original = Array(Self.encoded.utf8)
        let bytes = Array(#""\,:{}[] -+.0123456789eEtn"#.utf8) + [0x00, 0x09, 0x7F, 0x80, 0xC3, 0xFF]
        var accepted = 0
        for _ in 0..<20_000 {
            var line = original
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let offset = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: line[offset] = bytes.randomElement(using: &random) ?? 0
                case 1: line[offset] = UInt8.random(in: 0...255, using: &random)
                case 2: line.remove(at: offset)
                default: line.insert(line[offset], at: offset)
                }
                if line.isEmpty { break }
            }
            guard let point = LocationLine.trackPoint(line) else { continue }
            accepted += 1
            let decoded = try? EventLine(line)
            #expect(decoded.flatMap(TrackPoint.init) == point, "\(String(decoding: line, as: UTF8.self))")
        }
        // Digits changed for digits, and the like: enough lines still read to compare.
        #expect(accepted > 1_000)
    }

    @Test("a fix lost between two locations still splits the track; a line is read as the spool's kind says")
    func mixed() throws {
        let second = #"{"type":"location","seq":3,"time":"2029-11-25T16:58:44.000Z","lat":49,"lon":12,"mode":3}"#
        let error = #"{"type":"error","seq":2,"time":"2029-11-25T16:58:14.000Z","code":"no_device","message":"gone"}"#
        let events = [
            StoredEvent(seq: 1, kind: .location, time: Self.time, line: Array(Self.encoded.utf8)),
            StoredEvent(seq: 2, kind: .error, time: Self.time.advanced(by: .seconds(30)), line: Array(error.utf8)),
            StoredEvent(seq: 3, kind: .location, time: Self.time.advanced(by: .seconds(60)), line: Array(second.utf8)),
        ]
        let segments = try TripTrack.segments(of: events, through: Self.time.advanced(by: .seconds(60)))
        #expect(segments.map(\.count) == [1, 1])
        #expect(segments.last?.first?.time == Timestamp(iso8601: "2029-11-25T16:58:44.000Z"))
        // A location's line that the spool calls an error is read as an error, as before: no point.
        #expect(try Self.segments([Self.encoded], kind: .error) == [])
    }
}
