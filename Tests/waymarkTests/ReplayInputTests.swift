import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay` of what is no recording it takes says what the file is, never replays it to nothing (raw
/// receiver logs: RawLogReplayTests).
@Suite("Replay: what it takes, and what it refuses")
struct ReplayInputTests {
    @Test("--route-speed on a gpsd capture is refused: it times GPX routes, and a capture has its times")
    func routeSpeedOnACapture() throws {
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let result = try WaymarkBinary.run(["replay", capture, "--route-speed", "50", "--print"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains("--route-speed times a GPX route"), "\(result.stderr)")
    }

    @Test("bytes that are no recording at all are refused too")
    func noRecording() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("noise.bin").path
        var random = SplitMix64(seed: 3)
        // No line may start with {, $ or !.
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(noise.map { [0x7B, 0x24, 0x21].contains($0) ? 0 : $0 }).write(to: URL(fileURLWithPath: path))
        let result = try WaymarkBinary.run(["replay", path])
        #expect(result.status == 1 && result.stderr.contains("neither a gpsd JSON capture"), "\(result.stderr)")
    }

    @Test("the NMEA sentences gpsd echoed into a capture are counted in the summary")
    func echoedSentencesAreCounted() throws {
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        // By bytes: the lines end in CR LF, one Character in a Swift String.
        let sentences = try Data(contentsOf: URL(fileURLWithPath: capture)).split(separator: UInt8(ascii: "\n"))
            .filter { $0.first == UInt8(ascii: "$") || $0.first == UInt8(ascii: "!") }.count
        #expect(sentences > 9000)
        let result = try WaymarkBinary.run(["replay", capture])
        #expect(result.status == 0)
        #expect(result.stderr.contains(" nmea=\(sentences) "), "\(result.stderr)")
    }
}
