import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@Suite struct EventEncoderTests {
    /// A JSON value as a consumer sees it after parsing.
    enum Value: Hashable, Sendable, CustomStringConvertible {
        case string(String)
        case number(Double)

        var description: String {
            switch self {
            case .string(let text): text.debugDescription
            case .number(let number): "\(number)"
            }
        }
    }

    static let time = Timestamp(seconds: 1_271_005_064, nanoseconds: 123_456_789)
    static let received = Timestamp(seconds: 1_271_005_065, nanoseconds: 2_000_000)

    /// Parses one line with Foundation's JSON parser, as a consumer of the log files would.
    static func parse(_ line: String) throws -> [String: Value] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        let dictionary = try #require(object as? [String: Any], "not an object: \(line)")
        return try dictionary.mapValues { value in
            if let text = value as? String { return .string(text) }
            let number = try #require(value as? NSNumber, "neither a string nor a number: \(value)")
            return .number(number.doubleValue)
        }
    }

    /// The keys of a flat JSON object in the order they appear in the text.
    static func keys(in line: String) -> [String] {
        var keys: [String] = []
        var current: [Character] = []
        var inString = false
        var escaped = false
        var lastString: String?
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    lastString = String(current)
                    continue
                }
                current.append(character)
            } else if character == "\"" {
                inString = true
                current = []
            } else if character == ":", let key = lastString {
                keys.append(key)
                lastString = nil
            } else if !character.isWhitespace {
                lastString = nil
            }
        }
        return keys
    }

    /// The raw text of `key`'s value in a flat object whose values contain no commas.
    static func rawValue(of key: String, in line: String) throws -> Substring {
        let start = try #require(line.range(of: "\"\(key)\":"), "no \(key) in \(line)").upperBound
        let end = line[start...].firstIndex { $0 == "," || $0 == "}" } ?? line.endIndex
        return line[start..<end]
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let event: Event
        var deviceID: String? = nil
        /// Every member of the line, in order.
        let members: [(String, Value)]
    }

    static let rows: [Row] = [
        Row(
            testDescription: "a location with every field",
            event: Event(
                seq: 42,
                time: time,
                received: received,
                kind: .location(
                    Location(
                        time: time,
                        latitude: 49.012_345_678_9,
                        longitude: -12.098_765_432_1,
                        altitudeHAE: 383.5,
                        altitudeMSL: 336,
                        horizontalAccuracy: 4.2,
                        verticalAccuracy: 7.25,
                        speed: 0,
                        speedAccuracy: 0.5,
                        course: 271.5,
                        courseAccuracy: 3,
                        mode: .threeD
                    )
                )
            ),
            members: [
                ("type", .string("location")), ("seq", .number(42)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("recv", .string("2010-04-11T16:57:45.002Z")), ("lat", .number(49.012_345_678_9)),
                ("lon", .number(-12.098_765_432_1)), ("alt_hae", .number(383.5)), ("alt_msl", .number(336)),
                ("h_acc", .number(4.2)), ("v_acc", .number(7.25)), ("speed", .number(0)), ("speed_acc", .number(0.5)),
                ("course", .number(271.5)), ("course_acc", .number(3)), ("mode", .number(3)),
            ]
        ),
        Row(
            testDescription: "a 2D location with only a position",
            event: Event(
                seq: 1,
                time: time,
                kind: .location(Location(time: time, latitude: 0, longitude: 0, mode: .twoD))
            ),
            members: [
                ("type", .string("location")), ("seq", .number(1)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("lat", .number(0)), ("lon", .number(0)), ("mode", .number(2)),
            ]
        ),
        Row(
            testDescription: "non-finite fields are left out",
            event: Event(
                seq: 2,
                time: time,
                kind: .location(
                    Location(
                        time: time,
                        latitude: -33.5,
                        longitude: 151.25,
                        altitudeHAE: .nan,
                        altitudeMSL: .infinity,
                        horizontalAccuracy: -.infinity,
                        verticalAccuracy: .signalingNaN,
                        speed: .nan,
                        course: .nan
                    )
                )
            ),
            members: [
                ("type", .string("location")), ("seq", .number(2)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("lat", .number(-33.5)), ("lon", .number(151.25)), ("mode", .number(3)),
            ]
        ),
        Row(
            testDescription: "an uplink location names the device after recv",
            event: Event(
                seq: 3,
                time: time,
                received: received,
                kind: .location(Location(time: time, latitude: 1.5, longitude: 2.5))
            ),
            deviceID: "bus-42",
            members: [
                ("type", .string("location")), ("seq", .number(3)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("recv", .string("2010-04-11T16:57:45.002Z")), ("device", .string("bus-42")), ("lat", .number(1.5)),
                ("lon", .number(2.5)), ("mode", .number(3)),
            ]
        ),
        Row(
            testDescription: "a status with every field",
            event: Event(
                seq: 1_000_000,
                time: time,
                received: received,
                kind: .status(
                    Status(
                        gpsd: .connected,
                        device: "/dev/ttyUSB0",
                        fixMode: .threeD,
                        satellitesUsed: 9,
                        lastKnown: Location(
                            time: Timestamp(seconds: 1_271_005_063),
                            latitude: 49.0125,
                            longitude: 12.0913,
                            horizontalAccuracy: 17.5
                        )
                    )
                )
            ),
            members: [
                ("type", .string("status")), ("seq", .number(1_000_000)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("recv", .string("2010-04-11T16:57:45.002Z")), ("gpsd", .string("connected")),
                ("device_path", .string("/dev/ttyUSB0")), ("fix_mode", .number(3)), ("satellites_used", .number(9)),
                ("last_location_time", .string("2010-04-11T16:57:43.000Z")), ("lat", .number(49.0125)),
                ("lon", .number(12.0913)), ("h_acc", .number(17.5)),
            ]
        ),
        Row(
            testDescription: "a status before anything is known",
            event: Event(seq: 0, time: Timestamp(seconds: -1), kind: .status(Status(gpsd: .unavailable))),
            members: [
                ("type", .string("status")), ("seq", .number(0)), ("time", .string("1969-12-31T23:59:59.000Z")),
                ("gpsd", .string("unavailable")), ("fix_mode", .number(0)),
            ]
        ),
        Row(
            testDescription: "an uplink status keeps device and device_path apart",
            event: Event(
                seq: 5,
                time: time,
                kind: .status(Status(gpsd: .connected, device: "/dev/ttyACM0", fixMode: .noFix))
            ),
            deviceID: "bus-42",
            members: [
                ("type", .string("status")), ("seq", .number(5)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("device", .string("bus-42")), ("gpsd", .string("connected")), ("device_path", .string("/dev/ttyACM0")),
                ("fix_mode", .number(1)),
            ]
        ),
        Row(
            testDescription: "an error",
            event: Event(
                seq: 9,
                time: time,
                received: received,
                kind: .error(ErrorReport(code: .gpsdUnavailable, message: "gpsd at localhost:2947 is unavailable"))
            ),
            members: [
                ("type", .string("error")), ("seq", .number(9)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("recv", .string("2010-04-11T16:57:45.002Z")), ("code", .string("gpsd_unavailable")),
                ("message", .string("gpsd at localhost:2947 is unavailable")),
            ]
        ),
        Row(
            testDescription: "a driving event: kind, place, peak, duration, speeds, limit",
            event: Event(
                seq: 12,
                time: time,
                kind: .driving(
                    DrivingReport(
                        kind: .overspeedEnd,
                        peak: 18.004,
                        duration: .milliseconds(8_250),
                        speed: 15.2,
                        limit: 50 / 3.6,
                        position: Coordinate(latitude: 49.0123, longitude: 12.0987),
                        reason: "shutdown"
                    )
                )
            ),
            members: [
                ("type", .string("driving")), ("seq", .number(12)), ("time", .string("2010-04-11T16:57:44.123Z")),
                ("kind", .string("overspeed_end")), ("lat", .number(49.0123)), ("lon", .number(12.0987)),
                ("peak", .number(18)), ("duration", .number(8.25)), ("speed", .number(15.2)),
                ("limit", .number(13.89)), ("reason", .string("shutdown")),
            ]
        ),
    ]

    @Test(arguments: rows)
    func encodesOneParsableLineWithTheExpectedMembers(_ row: Row) throws {
        let line = EventEncoder(deviceID: row.deviceID).line(row.event)
        #expect(!line.contains("\n"))
        #expect(try Self.parse(line) == Dictionary(uniqueKeysWithValues: row.members))
        #expect(Self.keys(in: line) == row.members.map(\.0))
        #expect(!line.contains("null"))
        #expect(!line.lowercased().contains("nan"))
    }

    @Test(arguments: rows)
    func encodeAppendsTheLineAndOneNewline(_ row: Row) {
        let encoder = EventEncoder(deviceID: row.deviceID)
        var buffer = Array("previous\n".utf8)
        encoder.encode(row.event, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "previous\n" + encoder.line(row.event) + "\n")
    }

    @Test func everyKindNamesItsType() {
        let location = Event(time: Self.time, kind: .location(Location(time: Self.time, latitude: 1, longitude: 2)))
        let status = Event(time: Self.time, kind: .status(Status(gpsd: .connected)))
        let error = Event(time: Self.time, kind: .error(ErrorReport(code: .noDevice, message: "gone")))
        #expect([location, status, error].map(\.type) == ["location", "status", "error"])
        for event in [location, status, error] {
            #expect(EventEncoder().line(event).hasPrefix("{\"type\":\"\(event.type)\",\"seq\":0,\"time\":"))
        }
    }

    @Test(arguments: [
        (384.0, "384"),
        (-12.0, "-12"),
        (0.0, "0"),
        (-0.0, "0"),
        (4.25, "4.25"),
        (271.5, "271.5"),
        (8_848.0, "8848"),
        (-0.5, "-0.5"),
    ])
    func integralDoublesPrintAsIntegers(_ value: Double, _ text: String) throws {
        let location = Location(time: Self.time, latitude: 1, longitude: 2, altitudeHAE: value)
        let line = EventEncoder().line(Event(time: Self.time, kind: .location(location)))
        #expect(try Self.rawValue(of: "alt_hae", in: line) == text)
    }

    @Test(arguments: [1e-7, -2.5e-9, 1e15, 1e20, 123_456_789.123, .leastNonzeroMagnitude, .greatestFiniteMagnitude])
    func extremeNumbersStayValidJSON(_ value: Double) throws {
        let location = Location(time: Self.time, latitude: 1, longitude: 2, altitudeHAE: value)
        let line = EventEncoder().line(Event(time: Self.time, kind: .location(location)))
        let parsed = try Self.parse(line)
        #expect(parsed["alt_hae"] == .number(value))
    }

    @Test func coordinatesRoundTripTo1e12() throws {
        var generator = SplitMix64(seed: 0x57A7)
        var worst = 0.0
        for _ in 0..<2_000 {
            let latitude = Double.random(in: -90...90, using: &generator)
            let longitude = Double.random(in: -180...180, using: &generator)
            let location = Location(time: Self.time, latitude: latitude, longitude: longitude)
            let parsed = try Self.parse(EventEncoder().line(Event(time: Self.time, kind: .location(location))))
            guard case .number(let lat) = parsed["lat"], case .number(let lon) = parsed["lon"] else {
                Issue.record("no coordinates in \(parsed)")
                return
            }
            worst = max(worst, abs(lat - latitude), abs(lon - longitude))
        }
        #expect(worst <= 1e-12)
    }

    @Test(arguments: [
        "plain",
        "",
        "she said \"stop\"",
        #"C:\gpsd\log"#,
        "two\nlines",
        "carriage\r\nreturn",
        "tab\tseparated",
        "nul\u{0}byte",
        "bell\u{7}and escape\u{1B}[0m",
        "\u{1}\u{2}\u{1F}",
        "delete\u{7F}",
        "\\\"\\n",
        "accents: Übergrößenträger, ñ, é",
        "emoji 🚗🛰️",
        "separators \u{2028}\u{2029}",
        "{\"json\":\"inside\"}",
    ])
    func messagesRoundTripThroughEscaping(_ message: String) throws {
        let event = Event(time: Self.time, kind: .error(ErrorReport(code: .gpsdError, message: message)))
        let line = EventEncoder().line(event)
        #expect(line.utf8.allSatisfy { $0 >= 0x20 })
        #expect(try Self.parse(line)["message"] == .string(message))
        #expect(Self.keys(in: line) == ["type", "seq", "time", "code", "message"])
    }

    @Test(arguments: [
        ("\"", #"\""#),
        ("\\", #"\\"#),
        ("\n", #"\n"#),
        ("\r", #"\r"#),
        ("\t", #"\t"#),
        ("\u{0}", #"\u0000"#),
        ("\u{1}", #"\u0001"#),
        ("\u{1B}", #"\u001b"#),
        ("\u{1F}", #"\u001f"#),
        ("é", "é"),
    ])
    func controlCharactersUseJSONEscapes(_ message: String, _ escaped: String) {
        let event = Event(time: Self.time, kind: .error(ErrorReport(code: .gpsdError, message: message)))
        #expect(EventEncoder().line(event).hasSuffix("\"message\":\"\(escaped)\"}"))
    }

    @Test func deviceIDIsEscapedToo() throws {
        let event = Event(time: Self.time, kind: .status(Status(gpsd: .connected)))
        let line = EventEncoder(deviceID: "bus \"7\"\n").line(event)
        #expect(try Self.parse(line)["device"] == .string("bus \"7\"\n"))
    }

    @Test func timesAreTruncatedToMilliseconds() throws {
        let time = Timestamp(seconds: 1_271_005_064, nanoseconds: 999_999_999)
        let event = Event(
            time: time,
            received: Timestamp(seconds: 0, nanoseconds: 1_999_999),
            kind: .status(Status(gpsd: .connected))
        )
        let parsed = try Self.parse(EventEncoder().line(event))
        #expect(parsed["time"] == .string("2010-04-11T16:57:44.999Z"))
        #expect(parsed["recv"] == .string("1970-01-01T00:00:00.001Z"))
    }
}
