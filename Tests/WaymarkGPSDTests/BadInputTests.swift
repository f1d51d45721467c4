import Foundation
import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

@Suite("Garbage from receivers and captures is counted, never fatal")
struct BadInputTests {
    static let garbageLogs = [
        "firefly-II.log", "gp-320fw-2019-04-07-coldboot.log", "isync.log", "gpsdf.log", "tnt-revolution.log",
        "bu303-nofix.log",
    ]

    @Test("through a real gpsd", arguments: garbageLogs)
    func live(log: String) async throws {
        let updates = try await collectLive(log: log)
        let oracle = try CaptureOracle(chkPath: Fixtures.gpsdLog(log + ".chk"))
        expectMatches(updates.locations, oracle: oracle, "live \(log)")
        var pipeline = EventPipeline()
        for update in updates { _ = pipeline.handle(update) }
        #expect(pipeline.counters["location"] == oracle.epochs.count)
    }

    @Test("fix loss and no-fix epochs become noFix, timeless fixes no_time")
    func noFixCounts() throws {
        // gp-320fw: 13 of 17 TPVs are mode 1; 3 carry a position but no time: the first two are superseded
        // by the next timeless one (no_time), the third joins the first timed epoch.
        let updates = try collectReplay(Fixtures.gpsdLog("gp-320fw-2019-04-07-coldboot.log.chk"))
        var pipeline = EventPipeline()
        var codes: [String] = []
        for update in updates {
            for event in pipeline.handle(update) {
                if case .error(let report) = event.kind { codes.append(report.code.rawValue) }
            }
        }
        #expect(pipeline.counters["no_fix"] > 0)
        #expect(pipeline.counters["no_time"] == 2)
        #expect(pipeline.counters["location"] == 1)
        #expect(codes.first == "location_unknown")
    }

    @Test("a capture with garbled and truncated lines")
    func garbledCapture() throws {
        let good = #"{"class":"TPV","mode":3,"time":"2026-01-02T03:04:05.000Z","lat":1.5,"lon":2.5,"eph":5.0}"#
        let lines = [
            good,
            #"{"class":"TPV","mode":3,"time":"2026-01-02T03:04:06.000Z","lat":"#,  // truncated
            #"{"class":"TPV","mode":3,"lat":1.6,"lon":2.6,"time":"garbage"}"#,  // bad time → held, no_time
            "\u{01}\u{02}binary\u{FF}",
            #"{"class":"NOPE","x":1}"#,
            "$GPRMC,echo,of,nmea*00",
            #"{"class":"TPV","mode":3,"time":"2026-01-02T03:04:07.000Z","lat":91.0,"lon":2.5}"#,  // out of range
            String(repeating: "{", count: 20_000),
            #"{"class":"TPV","mode":3,"time":"2026-01-02T03:04:08.000Z","lat":1.7,"lon":2.7}"#,
        ]
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("garbled.json").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .isoLatin1)
        let updates = try collectReplay(path)
        #expect(updates.locations.map(\.latitude) == [1.5, 1.7])
        #expect(updates.count(.unparsable) == 3)
        #expect(updates.count(.ignoredClass) == 1)
        #expect(updates.count(.invalidPosition) == 1)
        #expect(updates.count(.noTime) == 1)
    }

    @Test("hostile times: a fraction of many nines, years apart, far future — no trap")
    func hostileTimes() throws {
        let lines = [
            #"{"class":"TPV","mode":2,"time":"2024-01-01T00:00:00.99999999999999999999Z","lat":1,"lon":1}"#,
            #"{"class":"TPV","mode":2,"time":"1990-01-01T00:00:00.000Z","lat":1,"lon":1}"#,
            #"{"class":"TPV","mode":2,"time":"9999-01-01T00:00:00.000Z","lat":2,"lon":2}"#,
            #"{"class":"TPV","mode":2,"time":"9999-01-01T00:00:01.000Z","lat":3,"lon":3}"#,
            #"{"class":"TPV","mode":2,"time":"1990-01-01T00:00:01.000Z","lat":4,"lon":4}"#,
        ]
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hostile.json").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let updates = try collectReplay(path)
        var pipeline = EventPipeline()
        for update in updates { _ = pipeline.handle(update) }
        // The first line's time is no time: it joins the next epoch; the other four are epochs of their own.
        #expect(updates.locations.map(\.latitude) == [1, 2, 3, 4])
        #expect(updates.locations.first?.time.iso8601 == "1990-01-01T00:00:00.000Z")
    }

    @Test("a file that does not exist names the path")
    func missingFile() {
        #expect {
            _ = try Replay.open(contentsOf: "/nonexistent/drive.json")
        } throws: { error in
            "\(error)".contains("/nonexistent/drive.json") && "\(error)".contains("No such file")
        }
    }
}
