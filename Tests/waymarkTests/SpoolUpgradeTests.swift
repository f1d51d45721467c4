import Foundation
import Testing
import WaymarkTestSupport

/// A board upgraded from the GRDB build: `waymark run` finds the spool that build left after a power cut
/// (`Tests/Fixtures/spool-grdb`: events 1 to 614 of the Regensburg drive, the file sink at 585, inside
/// region `yard`, a trip in progress) and goes on with the rest of the drive from a real gpsd.
@Suite("A spool of the GRDB build, continued")
struct SpoolUpgradeTests {
    @Test("seq numbering, the file sink's cursor, the open trip and the region states carry over")
    func continuesTheDrive() throws {
        let fixture = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/spool-grdb")
        let workspace = try DurabilityTests.Workspace(
            """
            [regions]
            file = "\(fixture.appendingPathComponent("regions.geojson").path)"
            [deferred]
            enabled = false

            """
        )
        try FileManager.default.createDirectory(at: workspace.state, withIntermediateDirectories: true)
        for name in ["spool.sqlite", "spool.sqlite-wal"] {
            try FileManager.default.copyItem(
                at: fixture.appendingPathComponent(name),
                to: workspace.state.appendingPathComponent(name)
            )
        }
        // The old agent saw the drive's first 6,000 lines. The board comes back at line 7,500, 680 m from the
        // centre of `yard` (radius 500 m): the vehicle left it while the power was off.
        // (By bytes: the log's lines end in CR LF, one Character in a Swift String.)
        let drive = try Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog(DurabilityTests.drive)))
        let rest = workspace.directory.appendingPathComponent("rest.log")
        let lines = drive.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        try Data(lines.dropFirst(7500).joined(separator: [UInt8(ascii: "\n")])).write(to: rest)
        let gpsd = try GPSDTestServer(log: rest.path)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let agent = try workspace.start(gpsd: gpsd.port)
        try agent.wait(seconds: 60, "the end of the drive") { agent.stdout.contains(#""code":"no_device""#) }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")

        let events = try agent.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["seq"] as? Int } == Array(615..<(615 + events.count)).map { $0 })
        #expect(events.filter { $0["type"] as? String == "location" }.count > 150)
        // The trip the power cut broke off is reported once, as far as it was saved.
        let interrupted = events.filter { $0["type"] as? String == "trip" && $0["reason"] as? String == "interrupted" }
        #expect(interrupted.count == 1)
        #expect(interrupted.first?["start_time"] as? String == "2029-11-25T16:57:54.000Z")
        // Saved inside `yard`, found outside it: an exit. (A state lost would make the first fix only set it.)
        let yard = events.filter { $0["type"] as? String == "region" && $0["id"] as? String == "yard" }
        #expect(yard.first?["event"] as? String == "exit", "\(yard)")
        // The file sink goes on after its cursor, 585: the old agent's undelivered events, then the new ones,
        // each once. (Events stamped before the first fix go to the system clock's day file.)
        let logged = try workspace.logLines().compactMap(DurabilityTests.seq)
        #expect(logged.sorted() == Array(586...(614 + events.count)))
        let stats = try workspace.spoolStats()
        #expect(stats["last_seq"] as? Int == 614 + events.count)
        #expect(stats["events"] as? Int == 614 + events.count)
    }
}
