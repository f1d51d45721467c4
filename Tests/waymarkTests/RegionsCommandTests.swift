import Foundation
import Synchronization
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark regions`, run as an operator runs it, against a configuration in a temporary directory.
@Suite("waymark regions")
struct RegionsCommandTests {
    /// A temporary directory with a configuration that names its region file and state directory.
    final class Workspace: Sendable {
        let directory: URL
        let config: String
        let regionFile: String

        /// - Parameter regionsSettings: more `[regions]` lines (limits).
        init(_ regionsSettings: String = "") throws {
            directory = try Fixtures.temporaryDirectory()
            config = directory.appendingPathComponent("waymark.toml").path
            regionFile = directory.appendingPathComponent("regions.geojson").path
            try """
            [agent]
            state_dir = "\(directory.path)"
            log_dir = "\(directory.path)/logs"
            runtime_dir = "\(directory.path)/run"
            [regions]
            file = "\(regionFile)"
            \(regionsSettings)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// `waymark regions ARGUMENTS --config CONFIG`, with `input` on stdin through a pipe.
        func run(_ arguments: [String], input: String? = nil) throws -> Output {
            try Output(["regions"] + arguments + ["--config", config], input: input, scratch: directory)
        }

        /// The region file's bytes; nil when there is none.
        var bytes: Data? { FileManager.default.contents(atPath: regionFile) }

        /// The region file's regions, read as the agent reads them.
        func regions() throws -> [Region] {
            try RegionFile(parsing: Array(try #require(bytes)), fileName: regionFile).checkedRegions()
        }

        func write(_ regions: [Region]) throws {
            try Data(RegionFile.encode(regions)).write(to: URL(fileURLWithPath: regionFile))
        }
    }

    /// What a run of `waymark` printed and its exit status.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

        init(_ arguments: [String], input: String?, scratch: URL) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WaymarkBinary.path)
            process.arguments = arguments
            process.environment = try WaymarkBinary.isolated(in: scratch)
            let name = UUID().uuidString
            let outURL = scratch.appendingPathComponent("\(name).stdout")
            let errURL = scratch.appendingPathComponent("\(name).stderr")
            defer {
                try? FileManager.default.removeItem(at: outURL)
                try? FileManager.default.removeItem(at: errURL)
            }
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            let pipe = Pipe()
            process.standardInput = input == nil ? FileHandle.nullDevice : pipe
            try process.run()
            if let input {
                pipe.fileHandleForWriting.write(Data(input.utf8))
                try pipe.fileHandleForWriting.close()
            }
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                process.stop()
                throw TestServerError("waymark \(arguments.joined(separator: " ")) ran longer than 30 s")
            }
            process.waitUntilExit()
            status = process.terminationStatus
            stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
            stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        }
    }

    static func circle(_ id: String, _ latitude: Double, _ longitude: Double, radius: Double = 100) -> Region {
        Region(id: id, shape: .circle(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius))
    }

    /// A Feature of a 4-vertex polygon, about 1.1 km square, its south-west corner at (`latitude`, `longitude`).
    static func polygonFeature(_ id: String, _ latitude: Double, _ longitude: Double) -> String {
        let (south, west, north, east) = (latitude, longitude, latitude + 0.01, longitude + 0.01)
        return """
            {"type": "Feature", "properties": {"id": "\(id)", "name": "Yard \(id)", "notify_on_entry": false},
             "geometry": {"type": "Polygon", "coordinates": [[[\(west), \(south)], [\(east), \(south)],
               [\(east), \(north)], [\(west), \(north)], [\(west), \(south)]]]}}
            """
    }

    @Test("add a circle with negative coordinates: the file is created and list shows it")
    func addCircle() throws {
        let workspace = try Workspace()
        let added = try workspace.run([
            "add", "depot", "--lat", "-33.86", "--lon", "-70.65", "--radius", "150", "--name", "Main depot",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdoutLines == ["added region \"depot\" to \(workspace.regionFile)"])
        #expect(
            try workspace.regions() == [
                Region(
                    id: "depot",
                    name: "Main depot",
                    shape: .circle(center: Coordinate(latitude: -33.86, longitude: -70.65), radius: 150)
                )
            ]
        )
        let list = try workspace.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdoutLines.count == 2)
        #expect(list.stdoutLines.first?.split(separator: " ") == ["ID", "KIND", "SIZE", "NOTIFY", "NAME"])
        #expect(
            list.stdoutLines.last?.split(separator: " ", omittingEmptySubsequences: true)
                == ["depot", "circle", "150", "m", "entry+exit", "Main", "depot"]
        )
        let json = try workspace.run(["list", "--json"])
        #expect(json.status == 0)
        #expect(Data(json.stdout.utf8) == workspace.bytes)
    }

    @Test("add an existing id: the region is replaced and says so; the others are kept")
    func addReplaces() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(["add", "depot", "--lat", "48.1", "--lon", "11.5", "--radius", "150"]).status == 0)
        #expect(try workspace.run(["add", "gate", "--lat", "48.2", "--lon", "11.6", "--radius", "20"]).status == 0)
        let replaced = try workspace.run([
            "add", "depot", "--lat=-1.5", "--lon", "-0.25", "--radius", "300.5", "--no-notify-exit",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdoutLines == ["replaced region \"depot\" in \(workspace.regionFile)"])
        #expect(
            try workspace.regions() == [
                Region(
                    id: "depot",
                    notifyOnExit: false,
                    shape: .circle(center: Coordinate(latitude: -1.5, longitude: -0.25), radius: 300.5)
                ),
                Self.circle("gate", 48.2, 11.6, radius: 20),
            ]
        )
        let list = try workspace.run(["list"])
        #expect(
            list.stdoutLines.dropFirst().map { $0.split(separator: " ").map(String.init) } == [
                ["depot", "circle", "300.5", "m", "entry"], ["gate", "circle", "20", "m", "entry+exit"],
            ]
        )
    }

    @Test("add a polygon Feature from stdin, and a FeatureCollection from a file")
    func addGeoJSON() throws {
        let workspace = try Workspace()
        let fromStdin = try workspace.run(
            ["add", "--geojson", "-"],
            input: Self.polygonFeature("north", 49.0, 12.0)
        )
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdoutLines == ["added region \"north\" to \(workspace.regionFile)"])
        let collection = workspace.directory.appendingPathComponent("two.geojson")
        try """
        {"type": "FeatureCollection", "features": [\(Self.polygonFeature("south", -49.0, -12.0)),
          {"type": "Feature", "properties": {"id": "north", "radius": 50}, "geometry": {"type": "Point",
           "coordinates": [12.005, 49.005]}}]}
        """.write(to: collection, atomically: true, encoding: .utf8)
        let fromFile = try workspace.run(["add", "--geojson", collection.path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(
            fromFile.stdoutLines == [
                "added region \"south\" to \(workspace.regionFile)",
                "replaced region \"north\" in \(workspace.regionFile)",
            ]
        )
        let list = try workspace.run(["list"])
        #expect(
            list.stdoutLines.dropFirst().map { $0.split(separator: " ").map(String.init) } == [
                ["north", "circle", "50", "m", "entry+exit"],
                ["south", "polygon", "4", "vertices", "exit", "Yard", "south"],
            ]
        )
        let regions = try workspace.regions()
        guard case .polygons(let polygons) = regions.last?.shape else {
            Issue.record("not a polygon: \(regions)")
            return
        }
        #expect(polygons.first?.first?.first == Coordinate(latitude: -49.0, longitude: -12.0))
    }

    @Test("a bad region from stdin: its problem with its position, exit 2, the file untouched")
    func addBadGeoJSON() throws {
        let workspace = try Workspace()
        try workspace.write([Self.circle("depot", 1, 2)])
        let before = workspace.bytes
        let result = try workspace.run(
            ["add", "--geojson", "-"],
            input: #"{"type": "Feature", "properties": {"id": "x", "radius": -5}, "geometry": {"type": "Point", "#
                + #""coordinates": [1, 2]}}"#
        )
        #expect(result.status == 2)
        #expect(
            result.stderrLines == [
                "waymark regions add: stdin:1:57: properties.radius = -5: must be a positive number of metres; "
                    + "\(workspace.regionFile) not changed"
            ]
        )
        #expect(workspace.bytes == before)
    }

    @Test("remove regions; an unknown id: exit 2 naming it, the file unchanged byte for byte")
    func remove() throws {
        let workspace = try Workspace()
        try workspace.write([Self.circle("a", 1, 2), Self.circle("b", -3, -4), Self.circle("c", 5, 6)])
        let removed = try workspace.run(["remove", "a", "c"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(
            removed.stdoutLines == [
                "removed region \"a\" from \(workspace.regionFile)",
                "removed region \"c\" from \(workspace.regionFile)",
            ]
        )
        #expect(try workspace.regions() == [Self.circle("b", -3, -4)])
        let before = try #require(workspace.bytes)
        let unknown = try workspace.run(["remove", "b", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderrLines.count == 1, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("no region \"nope\""), "\(unknown.stderr)")
        #expect(unknown.stderr.contains(workspace.regionFile))
        #expect(workspace.bytes == before)
    }

    /// A FeatureCollection of `good-1`, a feature with a negative radius, and `good-2`.
    static let importText = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "good-1", "radius": 80},
           "geometry": {"type": "Point", "coordinates": [-58.4, -34.6]}},
          {"type": "Feature", "properties": {"id": "bad", "radius": -5},
           "geometry": {"type": "Point", "coordinates": [1, 2]}},
          \(polygonFeature("good-2", 10, 20))
        ]}
        """

    @Test("import with a bad feature: exit 2 naming features[1], nothing written")
    func importRefused() throws {
        let workspace = try Workspace()
        try workspace.write([Self.circle("kept", 1, 2)])
        let before = workspace.bytes
        let source = workspace.directory.appendingPathComponent("import.geojson")
        try Self.importText.write(to: source, atomically: true, encoding: .utf8)
        let result = try workspace.run(["import", source.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.first?.hasPrefix("\(source.path):4:") == true
                && result.stderrLines.first?.contains("features[1] (id \"bad\"): properties.radius = -5") == true,
            "\(result.stderr)"
        )
        #expect(result.stderrLines.last?.contains("nothing imported") == true, "\(result.stderr)")
        #expect(workspace.bytes == before)
    }

    @Test("import --skip-invalid: the valid features are merged, the bad one reported")
    func importSkippingInvalid() throws {
        let workspace = try Workspace()
        try workspace.write([Self.circle("kept", 1, 2), Self.circle("good-1", 0, 0)])
        let result = try workspace.run(["import", "-", "--skip-invalid"], input: Self.importText)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == ["imported 2 regions into \(workspace.regionFile): 1 added, 1 replaced"])
        #expect(result.stderr.contains("stdin:4:"), "\(result.stderr)")
        #expect(result.stderr.contains("features[1] (id \"bad\")"), "\(result.stderr)")
        #expect(try workspace.regions().map(\.id) == ["kept", "good-1", "good-2"])
        #expect(try workspace.regions()[1] == Self.circle("good-1", -34.6, -58.4, radius: 80))
    }

    @Test("limits: a radius over max_radius and a region over max_regions are refused with the reason")
    func limits() throws {
        let workspace = try Workspace("max_radius = 1000\nmax_regions = 2")
        let tooBig = try workspace.run(["add", "huge", "--lat", "50", "--lon", "8", "--radius", "1500"])
        #expect(tooBig.status == 2)
        #expect(tooBig.stderrLines.count == 1, "\(tooBig.stderr)")
        #expect(tooBig.stderr.contains("region \"huge\""), "\(tooBig.stderr)")
        #expect(tooBig.stderr.contains("more than max_radius = 1000"), "\(tooBig.stderr)")
        #expect(workspace.bytes == nil, "nothing written, not even an empty file")
        #expect(try workspace.run(["add", "a", "--lat", "50", "--lon", "8", "--radius", "1000"]).status == 0)
        #expect(try workspace.run(["add", "b", "--lat", "50", "--lon", "9", "--radius", "10"]).status == 0)
        let before = workspace.bytes
        let third = try workspace.run(["add", "c", "--lat", "50", "--lon", "10", "--radius", "10"])
        #expect(third.status == 2)
        #expect(third.stderr.contains("more than max_regions = 2"), "\(third.stderr)")
        #expect(workspace.bytes == before)
        #expect(try workspace.run(["add", "b", "--lat", "51", "--lon", "9", "--radius", "10"]).status == 0)
        let badNumber = try workspace.run(["add", "d", "--lat", "-91", "--lon", "9", "--radius", "10"])
        #expect(badNumber.status == 2)
        #expect(badNumber.stderrLines == ["waymark regions add: --lat -91: must be a latitude from -90 to 90 degrees"])
    }

    @Test("state: each region's saved state, unknown without a state file, or one region's")
    func state() throws {
        let workspace = try Workspace("max_radius = 1000")
        try workspace.write([
            Self.circle("depot", 1, 2), Self.circle("gate", 3, 4), Self.circle("huge", 5, 6, radius: 5000),
        ])
        let unknown = try workspace.run(["state"])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(
            unknown.stdoutLines.map { $0.split(separator: " ").prefix(2) } == [
                ["depot", "unknown"], ["gate", "unknown"], ["huge", "not"],
            ]
        )
        #expect(unknown.stdoutLines.last?.contains("not monitored: it reaches 5000.0 m") == true)
        try "waymark region states 1\ngate\nremoved-long-ago\n".write(
            to: workspace.directory.appendingPathComponent("regions.state"),
            atomically: true,
            encoding: .utf8
        )
        let saved = try workspace.run(["state"])
        #expect(
            saved.stdoutLines.map { $0.split(separator: " ").prefix(2) } == [
                ["depot", "outside"], ["gate", "inside"], ["huge", "not"],
            ]
        )
        let one = try workspace.run(["state", "gate"])
        #expect(one.status == 0)
        #expect(one.stdoutLines == ["gate  inside"])
        let missing = try workspace.run(["state", "nope"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no region \"nope\""), "\(missing.stderr)")
    }

    @Test("a malformed region file: list prints its problems and exits 2; add leaves it alone")
    func malformedFile() throws {
        let workspace = try Workspace()
        try workspace.write([Self.circle("a", 1, 2), Self.circle("a", 3, 4)])
        let before = workspace.bytes
        let list = try workspace.run(["list"])
        #expect(list.status == 2)
        #expect(list.stdout.isEmpty)
        #expect(
            list.stderrLines.first?.hasPrefix("\(workspace.regionFile):5:") == true
                && list.stderrLines.first?.contains("features[1] (id \"a\")") == true
                && list.stderrLines.first?.contains("ids must be unique") == true,
            "\(list.stderr)"
        )
        let add = try workspace.run(["add", "b", "--lat", "1", "--lon", "1", "--radius", "5"])
        #expect(add.status == 2)
        #expect(add.stderr.contains("features[1]"))
        #expect(workspace.bytes == before)
    }

    @Test("a rewrite keeps the other regions equal and drops foreign members, as the help says")
    func rewrite() throws {
        let workspace = try Workspace()
        let original = """
            {"description": "depots of the north", "type": "FeatureCollection", "features": [
              {"type": "Feature", "id": 17, "bbox": [0, 0, 1, 1], "properties": {"name": "Depot", "radius": 250.25,
               "notify_on_exit": false, "colour": "red"},
               "geometry": {"type": "Point", "coordinates": [-0.1275, 51.507222]}},
              \(Self.polygonFeature("yard", 51.5, -0.2))
            ]}
            """
        try original.write(toFile: workspace.regionFile, atomically: true, encoding: .utf8)
        let before = try workspace.regions()
        #expect(try workspace.run(["add", "gate", "--lat", "51.6", "--lon", "-0.3", "--radius", "40"]).status == 0)
        #expect(try workspace.regions() == before + [Self.circle("gate", 51.6, -0.3, radius: 40)])
        let text = try String(contentsOfFile: workspace.regionFile, encoding: .utf8)
        #expect(!text.contains("description") && !text.contains("bbox") && !text.contains("colour"))
        let help = try WaymarkBinary.run(["regions", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            words.contains("others, such as a top-level \"description\" or a feature's \"bbox\", are lost on rewrite")
        )
    }

    @Test("commands run at the same time take turns: every one of them takes effect")
    func concurrentAdds() throws {
        let workspace = try Workspace()
        let count = 12
        let statuses = Mutex([Int32](repeating: -1, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let status = try? workspace.run([
                "add", "r\(index)", "--lat", "\(Double(index) / 10)", "--lon", "-\(index)", "--radius", "10",
            ]).status
            statuses.withLock { $0[index] = status ?? -2 }
        }
        #expect(statuses.withLock { $0 } == [Int32](repeating: 0, count: count))
        #expect(try Set(workspace.regions().map(\.id)) == Set((0..<count).map { "r\($0)" }))
    }

    @Test("a file that cannot be written: one line naming it, exit 1")
    func cannotWrite() throws {
        let workspace = try Workspace()
        let path = workspace.directory.appendingPathComponent("missing/regions.geojson").path
        let result = try workspace.run(["add", "x", "--lat", "1", "--lon", "2", "--radius", "3", "--file", path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot create \(path).tmp"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a running agent monitors a region added with waymark regions add within 2 s, without a restart")
    func runningAgentPicksUpAdd() throws {
        let log = "haicom-305N.log"
        let epochs = try CaptureOracle(chkPath: Fixtures.gpsdLog(log + ".chk")).epochs
        try #require(!epochs.isEmpty)
        let latitude = epochs.map(\.latitude).reduce(0, +) / Double(epochs.count)
        let longitude = epochs.map(\.longitude).reduce(0, +) / Double(epochs.count)
        // The receiver wanders tens of metres: a 2 km circle around its mean position holds every fix. The fixes
        // come 6 s after the agent watches, well after the region is added.
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(log), feedDelay: 6)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let workspace = try Workspace()
        try workspace.write([])
        let agent = try WaymarkBinary.start([
            "run", "--print", "--config", workspace.config, "--gpsd", "127.0.0.1:\(gpsd.port)",
        ])
        try agent.wait(seconds: 10, "the empty region file loaded") { agent.stderr.contains("0 regions loaded") }
        let added = try workspace.run([
            "add", "depot", "--lat", "\(latitude)", "--lon", "\(longitude)", "--radius", "2000",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        // Loaded once the file has stayed the same for one look, a second after the change: at most about 2 s.
        try agent.wait(seconds: 10, "the added region loaded") { agent.stderr.contains("1 regions loaded") }
        try agent.wait(seconds: 20, "the depot's state") { agent.stdout.contains("\"type\":\"region_state\"") }
        #expect(agent.stdout.contains("\"state\":\"inside\",\"id\":\"depot\""), "\(agent.stdout)")
        #expect(!agent.stderr.contains("rejected"), "\(agent.stderr)")
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }
}
