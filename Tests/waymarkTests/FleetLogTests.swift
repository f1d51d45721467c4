import Foundation
import Testing
import WaymarkTestSupport

/// The spool and the fleet-review logs from a replayed drive (`waymark replay --spool`): the GPX tracks
/// against the official schema, the commands that read the spool, and a spool far too small.
@Suite("Fleet-review logs from a replayed drive")
struct FleetLogTests {
    static let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
    static let schema = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gpx-schema/gpx.xsd").path

    /// `waymark replay --spool --print` of the Regensburg drive with `settings`; the printed events.
    static func replay(_ workspace: DurabilityTests.Workspace) throws -> [String] {
        let result = try WaymarkBinary.run(["replay", capture, "--spool", "--print", "--config", workspace.config])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutLines.map(String.init)
    }

    /// `xmllint --schema` of the file at `path`: its exit status and what it printed.
    static func validate(_ path: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--schema", schema, path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errors = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }

    @Test("each trip of the drive gets a GPX 1.1 track valid against the schema, and a summary")
    func tripTracks() throws {
        let workspace = try DurabilityTests.Workspace("[activity]\npause_after = \"30s\"\n")
        let events = try Self.replay(workspace)
        let trips = events.filter { $0.contains("\"type\":\"trip\"") }
        #expect(trips.count == 3)
        let tracks = workspace.logs.appendingPathComponent("trips")
        let files = try FileManager.default.contentsOfDirectory(atPath: tracks.path).sorted()
        #expect(files.count == trips.count)
        var points = 0
        for file in files {
            let path = tracks.appendingPathComponent(file).path
            let result = try Self.validate(path)
            #expect(result.status == 0, "\(file): \(result.stderr)")
            points += try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        }
        #expect(points > 500)
        let summaries = try String(contentsOf: workspace.logs.appendingPathComponent("trips.jsonl"), encoding: .utf8)
        #expect(summaries.split(separator: "\n").map(String.init) == trips)
        let list = try WaymarkBinary.run(["trips", "list", "--config", workspace.config])
        #expect(list.status == 0 && list.stdoutLines.count == 1 + trips.count, "\(list.stdout)\(list.stderr)")
        // The whole drive exported as one GPX document validates too.
        let export = try WaymarkBinary.run(["spool", "export", "--format", "gpx", "--config", workspace.config])
        let path = workspace.directory.appendingPathComponent("drive.gpx").path
        try export.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.validate(path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            export.stdout.components(separatedBy: "<trkpt ").count - 1
                == events.filter { $0.contains("\"type\":\"location\"") }.count
        )
    }

    @Test("a tiny max_bytes thins routine locations, keeps every pause, resume, trip and region, counts the drops")
    func fullSpool() throws {
        let workspace = try DurabilityTests.Workspace(
            "[activity]\npause_after = \"30s\"\n[spool]\nmax_bytes = \"64KB\"\n[sinks.file]\nenabled = false\n"
        )
        let events = try Self.replay(workspace)
        let spooled = Set(try workspace.spoolLines())
        for type in ["pause", "resume", "trip", "region", "deferred_finished"] {
            let emitted = events.filter { $0.contains("\"type\":\"\(type)\"") }
            #expect(emitted.allSatisfy(spooled.contains), "\(type) dropped")
        }
        let stats = try workspace.spoolStats()
        let drops = try #require(stats["drops"] as? [String: Int])
        #expect((drops["location"] ?? 0) > 0)
        #expect(Set(drops.keys).isSubset(of: ["location", "heading", "status", "error", "region_state"]), "\(drops)")
        #expect(events.contains { $0.contains("\"code\":\"spool_full\"") })
        #expect((stats["bytes"] as? Int ?? .max) <= 64 * 1024)
        // Thinned, not cut off: the older half of the drive keeps locations, fewer than the newer half (the
        // thinning sweeps round and round, so the oldest stretches are thinned most).
        let locations = events.filter { $0.contains("\"type\":\"location\"") }
        let kept = locations.indices.filter { spooled.contains(locations[$0]) }
        let older = kept.filter { $0 < locations.count / 2 }.count
        #expect(older > 0 && older < kept.count - older, "kept \(kept)")
    }
}
