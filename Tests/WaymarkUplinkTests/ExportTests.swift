import Foundation
import Testing
import WaymarkCore
import WaymarkGPX
import WaymarkTestSupport
import WaymarkUplink

@Suite struct ExportTests {
    // MARK: - Decoding lines

    @Test func decodesALocationLine() throws {
        let text = #"""
            {"type":"location","seq":5,"time":"2029-11-25T16:57:46.000Z","lat":49.026566667,"lon":12.065271667,\#
            "alt_hae":383.5,"alt_msl":336.9,"h_acc":19,"v_acc":34.5,"speed":0,"speed_acc":12.12,"course":131.9,"mode":3}
            """#
        let line = try EventLine(Array(text.utf8))
        #expect(line.type == "location")
        #expect(line.seq == 5)
        #expect(line.time == Timestamp(seconds: 1_890_320_266))
        #expect(line.coordinate == Coordinate(latitude: 49.026566667, longitude: 12.065271667))
        #expect(line.number("alt_msl") == 336.9)
        #expect(line.number("mode") == 3)
        #expect(line.number("course_acc") == nil)
        #expect(line.string("lat") == nil)
        let point = try #require(TrackPoint(line))
        #expect(
            point
                == TrackPoint(
                    time: line.time,
                    latitude: 49.026566667,
                    longitude: 12.065271667,
                    elevation: 336.9,
                    speed: 0,
                    course: 131.9
                )
        )
    }

    @Test func keepsScalarsAndSkipsNestedValues() throws {
        let text = #"""
             {"type":"trip","seq":18446744073709551615,"time":"2010-04-11T18:57:44.5+02:00","regions_entered":["a",\#
            ["b"]],"extra":{"x":[1,2]},"reason":"stationary \"stop\"","offline":true,"note":null,"lat":1e-7} \#r
            """#
        let line = try EventLine(text.utf8)
        #expect(line.seq == UInt64.max)
        #expect(line.time == Timestamp(seconds: 1_271_005_064, nanoseconds: 500_000_000))
        #expect(line.string("reason") == "stationary \"stop\"")
        #expect(line.boolean("offline") == true)
        #expect(line.string("regions_entered") == nil && line.string("extra") == nil && line.string("note") == nil)
        #expect(line.number("lat") == 1e-7)
        #expect(line.coordinate == nil)
        #expect(TrackPoint(line) == nil)
    }

    @Test(arguments: [
        ("", "malformed_json", "column 1: the text ends where a value is expected"),
        ("[1]", "not_an_object", "column 1: an event line is a JSON object, found an array"),
        (#"{"type":"location","seq":1,"lat":1,}"#, "malformed_json", "column 36: expected a key in double quotes"),
        (
            #"{"type":"location","seq":1,"time":"2029-11-25T16:57:46Z"} x"#, "malformed_json",
            "column 59: unexpected \"x\""
        ),
        (#"{"type":"a","type":"b"}"#, "malformed_json", #"column 13: the key "type" is given twice"#),
        (#"{"type":"a","lat":1,"lon":2,"lat":3}"#, "malformed_json", #"column 29: the key "lat" is given twice"#),
        // Keys are compared as strings are: canonically equivalent spellings are one key.
        ("{\"type\":\"a\",\"K\":1,\"\u{212A}\":2}", "malformed_json", "column 19: the key \"\u{212A}\" is given twice"),
        ("{\"type\":\"a\",\"\u{E9}\":1,\"e\u{301}\":2}", "malformed_json", "column 20: the key \"e\u{301}\" is given"),
        (#"{"type":"location","seq":1,"time":"2029-11-25T16:57:46Z""#, "malformed_json", "column 1: the object is"),
        (#"{"seq":1,"time":"2029-11-25T16:57:46Z"}"#, "missing_member", #"the event has no "type""#),
        (#"{"type":"location","time":"2029-11-25T16:57:46Z"}"#, "missing_member", #"the event has no "seq""#),
        (#"{"type":"location","seq":1}"#, "missing_member", #"the event has no "time""#),
        (#"{"type":3,"seq":1,"time":"2029-11-25T16:57:46Z"}"#, "invalid_member", #"column 9: "type" is a number"#),
        (
            #"{"type":"x","seq":"1","time":"2029-11-25T16:57:46Z"}"#, "invalid_member",
            #"column 19: "seq" is a string, expected a number"#
        ),
        (
            #"{"type":"x","seq":-1,"time":"2029-11-25T16:57:46Z"}"#, "invalid_member",
            #"column 19: "seq" is -1, not a whole number 0 or more"#
        ),
        (
            #"{"type":"x","seq":1.0,"time":"2029-11-25T16:57:46Z"}"#, "invalid_member",
            #"column 19: "seq" is 1.0, not a whole number"#
        ),
        (
            #"{"type":"x","seq":1,"time":"yesterday"}"#, "invalid_member",
            #"column 28: "time" is "yesterday", not an ISO 8601"#
        ),
        (
            #"{"type":"x","seq":1,"time":"2029-02-30T00:00:00Z"}"#, "invalid_member",
            #"column 28: "time" is "2029-02-30T00:00:00Z", not"#
        ),
    ])
    func refusesABadLineSayingWhatAndWhere(text: String, code: String, message: String) {
        do {
            let line = try EventLine(Array(text.utf8))
            Issue.record("decoded \(line) from \(text)")
        } catch {
            #expect(error.code.description == code)
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    // MARK: - The Regensburg drive

    /// The Regensburg capture (Garmin Geko 301, 26 min by car) as the agent's event lines: one `location` per
    /// epoch with a 3D fix, a `location_unknown` error where the fix was lost for more than 10 s (twice), and a
    /// few region, heading and pause events in between.
    static func regensburgLines() throws -> (lines: [[UInt8]], locations: Int, gaps: Int) {
        let log = try ChkLog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk"))
        var fixes: [Location] = []
        for text in log.lines where text.contains(#""class":"TPV""#) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            guard let mode = object["mode"] as? Int, mode >= 2, let latitude = Self.double(object["lat"]),
                let longitude = Self.double(object["lon"]), let timeText = object["time"] as? String,
                let time = Timestamp(iso8601: timeText)
            else { continue }
            let location = Location(
                time: time,
                latitude: latitude,
                longitude: longitude,
                altitudeHAE: Self.double(object["altHAE"]),
                altitudeMSL: Self.double(object["altMSL"]),
                horizontalAccuracy: Self.double(object["eph"]),
                verticalAccuracy: Self.double(object["epv"]),
                speed: Self.double(object["speed"]),
                course: Self.double(object["track"]),
                mode: mode == 3 ? .threeD : .twoD
            )
            // gpsd reports an epoch several times, each more complete: keep the last.
            if fixes.last?.time == time { fixes.removeLast() }
            fixes.append(location)
        }
        var events: [Event] = []
        var gaps = 0
        for (index, fix) in fixes.enumerated() {
            if let previous = fixes[..<index].last, fix.time.duration(since: previous.time) > .seconds(10) {
                let lost = previous.time.advanced(by: .seconds(5))
                let report = ErrorReport(code: .locationUnknown, message: "the receiver has no fix")
                events.append(Event(time: lost, kind: .error(report)))
                gaps += 1
            }
            events.append(Event(time: fix.time, kind: .location(fix)))
            let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
            if index == 100 {
                let region = RegionEvent(
                    id: #"Depot "Nord", Tor 2"#,
                    crossing: .enter,
                    position: position,
                    confirmed: fix.time
                )
                events.append(Event(time: fix.time, kind: .region(region)))
            }
            if index == 200 {
                let report = ErrorReport(code: .headingFailure, message: "raw sensor units,\nnot degrees")
                events.append(Event(time: fix.time, kind: .error(report)))
            }
            if index == 300 {
                let pause = PauseReport(reason: .stationary, position: position, since: fix.time)
                events.append(Event(time: fix.time, kind: .pause(pause)))
            }
        }
        let encoder = EventEncoder(deviceID: "truck-7")
        let lines = events.enumerated().map { seq, event in
            var event = event
            event.seq = UInt64(seq + 1)
            var buffer: [UInt8] = []
            encoder.encode(event, into: &buffer)
            return Array(buffer.dropLast())
        }
        return (lines, fixes.count, gaps)
    }

    /// A JSON number as Foundation's parser hands it over: an `NSNumber`, or on Linux an `Int` or a `Double`.
    static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    static func export(_ lines: [[UInt8]], as format: ExportFormat) throws -> [UInt8] {
        var exporter = Exporter(format: format, trackName: "Regensburg & <Geko>")
        var buffer: [UInt8] = []
        exporter.begin(into: &buffer)
        for raw in lines { exporter.add(try EventLine(raw), raw: raw, into: &buffer) }
        exporter.end(into: &buffer)
        return buffer
    }

    @Test func exportsTheDriveAsOneValidGPXTrack() throws {
        let drive = try Self.regensburgLines()
        #expect(drive.locations == 774)
        #expect(drive.gaps == 2)
        let document = try Self.export(drive.lines, as: .gpx)
        #expect(try GPXSchema.problems(in: document) == nil)
        #expect(try GPXSchema.evaluate("count(//*[local-name()='trkpt'])", in: document) == "\(drive.locations)")
        // The heading failure splits nothing; each lost fix does.
        #expect(try GPXSchema.evaluate("count(//*[local-name()='trkseg'])", in: document) == "\(drive.gaps + 1)")
        let metadataTime = try GPXSchema.evaluate("string(//*[local-name()='metadata']/*)", in: document)
        #expect(metadataTime == "2029-11-25T16:57:44.000Z")
    }

    @Test func exportsEveryPlacedEventAsAGeoJSONFeature() throws {
        let drive = try Self.regensburgLines()
        let document = try Self.export(drive.lines, as: .geojson)
        let object = try JSONSerialization.jsonObject(with: Data(document))
        let collection = try #require(object as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        // Every location, the region event and the pause; not the two errors.
        #expect(features.count == drive.locations + 2)
        let placed = try drive.lines.filter { try EventLine($0).coordinate != nil }
        #expect(features.count == placed.count)
        for (feature, raw) in zip(features, placed) {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(raw)) as? NSDictionary)
            #expect(feature["properties"] as? NSDictionary == event)
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let coordinates = try #require(geometry["coordinates"] as? [Any]).compactMap(Self.double)
            let expected = [event["lon"], event["lat"], event["alt_hae"]].compactMap(Self.double)
            #expect(coordinates.count == expected.count)
            for (written, value) in zip(coordinates, expected) { #expect(abs(written - value) < 1e-9) }
        }
    }

    @Test func exportsEveryEventAsACSVRow() throws {
        let drive = try Self.regensburgLines()
        let text = String(decoding: try Self.export(drive.lines, as: .csv), as: UTF8.self)
        let rows = try Self.parseCSV(text)
        #expect(rows.first == Exporter.csvColumns)
        #expect(rows.count == drive.lines.count + 1)
        #expect(rows.allSatisfy { $0.count == 14 })
        let region = try #require(rows.first { $0[1] == "region" })
        #expect(region[11] == #"Depot "Nord", Tor 2"# && region[12] == "enter")
        #expect(text.contains(#","Depot ""Nord"", Tor 2",enter,\#r\#n"#))
        let failure = try #require(rows.first { $0[13] == "heading_failure" })
        #expect(failure[3...12].allSatisfy { $0.isEmpty })
        let first = rows[1]
        #expect(first[0] == "1" && first[1] == "location" && first[2] == "2029-11-25T16:57:44.000Z")
        #expect(first[3] == "49.026566667" && first[4] == "12.065271667" && first[9] == "3")
    }

    @Test func exportsJSONLinesUnchanged() throws {
        let drive = try Self.regensburgLines()
        let document = try Self.export(drive.lines, as: .jsonl)
        #expect(document == Array(drive.lines.joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")])
    }

    @Test func gpxSplitsOnlyWhereAFixLossComesBetweenTwoLocations() throws {
        func line(_ seq: Int, _ body: String) -> [UInt8] {
            Array(#"{"type":\#(body),"seq":\#(seq),"time":"2029-11-25T16:57:\#(10 + seq).000Z"}"#.utf8)
        }
        func location(_ seq: Int) -> [UInt8] { line(seq, #""location","lat":49,"lon":12"#) }
        func error(_ seq: Int, _ code: String) -> [UInt8] { line(seq, #""error","code":"\#(code)""#) }
        let lines = [
            error(1, "gpsd_unavailable"), location(2), error(3, "no_device"), error(4, "location_unknown"),
            location(5), error(6, "denied"), location(7), error(8, "location_unknown"),
        ]
        let document = try Self.export(lines, as: .gpx)
        #expect(try GPXSchema.problems(in: document) == nil)
        #expect(try GPXSchema.evaluate("count(//*[local-name()='trkseg'])", in: document) == "2")
        #expect(try GPXSchema.evaluate("count(//*[local-name()='trkseg'][2]/*)", in: document) == "2")
    }

    @Test(arguments: ExportFormat.allCases)
    func anEmptyExportIsAValidDocument(format: ExportFormat) throws {
        let document = try Self.export([], as: format)
        switch format {
        case .jsonl: #expect(document.isEmpty)
        case .gpx: #expect(try GPXSchema.problems(in: document) == nil)
        case .geojson:
            let object = try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any]
            #expect((object?["features"] as? [Any])?.isEmpty == true)
        case .csv:
            #expect(String(decoding: document, as: UTF8.self) == Exporter.csvColumns.joined(separator: ",") + "\r\n")
        }
    }

    /// RFC 4180 records: fields in double quotes may hold commas, doubled quotes and line breaks.
    static func parseCSV(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    guard let next = characters.next() else {
                        quoted = false
                        break
                    }
                    if next == "\"" {
                        field.append("\"")
                        continue
                    }
                    quoted = false
                    try #require(next == "," || next == "\r\n", "after a closing quote: \(next)")
                    row.append(field)
                    field = ""
                    if next == "\r\n" {
                        rows.append(row)
                        row = []
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r\n":
                row.append(field)
                field = ""
                rows.append(row)
                row = []
            default:
                try #require(character != "\"" && character != "\n" && character != "\r", "bare \(character)")
                field.append(character)
            }
        }
        try #require(!quoted && row.isEmpty && field.isEmpty, "the text ends inside a record")
        return rows
    }
}
