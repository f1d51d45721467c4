import Foundation
import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

@Suite("GPX replay")
struct GPXReplayTests {
    @Test("a GPX file with 1,000 track points replays to 1,000 location events at the file's times")
    func thousandPoints() throws {
        let start = Timestamp(iso8601: "2026-03-01T08:00:00Z")!
        var gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="waymark tests" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>loop</name><trkseg>

            """
        for index in 0..<1000 {
            let time = start.advanced(by: .seconds(index)).iso8601
            let latitude = 49.0 + Double(index) * 1e-4
            gpx += "<trkpt lat=\"\(latitude)\" lon=\"12.1\"><ele>\(330 + index % 7)</ele><time>\(time)</time></trkpt>\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("loop.gpx").path
        try gpx.write(toFile: path, atomically: true, encoding: .utf8)

        let source = try Replay.open(contentsOf: path)
        var pipeline = EventPipeline()
        var locations: [Event] = []
        var previousMonotonic = MonotonicInstant.zero
        while let update = source.next() {
            #expect(update.monotonic >= previousMonotonic)
            previousMonotonic = update.monotonic
            locations += pipeline.handle(update).filter { $0.type == "location" }
        }
        #expect(locations.count == 1000)
        #expect(locations.map(\.time) == (0..<1000).map { start.advanced(by: .seconds($0)) })
        #expect(previousMonotonic == MonotonicInstant.zero + .seconds(999))
        guard case .location(let last) = locations.last?.kind else { return }
        #expect(abs(last.latitude - (49.0 + 999e-4)) < 1e-12)
        #expect(last.altitudeMSL == Double(330 + 999 % 7))
    }

    @Test("a malformed GPX file names the file and the line")
    func malformed() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("broken.gpx").path
        try "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</trkseg></trk></gpx>".write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        #expect {
            _ = try Replay.open(contentsOf: path)
        } throws: { error in
            "\(error)".hasPrefix("\(path):4: ")
        }
    }
}
