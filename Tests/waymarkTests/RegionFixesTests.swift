import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// What a new user hit with regions: the states a replay leaves, a replaced circle's name, a missing file.
@Suite("Regions, as a new user met them")
struct RegionFixesTests {
    @Test("replay --spool saves the region states that regions state then shows")
    func replaySavesStates() throws {
        let workspace = try RegionsCommandTests.Workspace()
        let fixture = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/spool-grdb/regions.geojson")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: workspace.regionFile)
        let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let replay = try WaymarkBinary.run(["replay", capture, "--spool", "--config", workspace.config])
        #expect(replay.status == 0, "\(replay.stderr)")
        // The drive ends where it began, in `depot`, having left `yard` behind.
        let states = try workspace.run(["state"])
        #expect(states.status == 0 && states.stdoutLines == ["depot  inside", "yard   outside"], "\(states.stdout)")
        let help = try WaymarkBinary.run(["regions", "state", "--help"])
        #expect(help.stdout.contains("spool") && !help.stdout.contains("Reads regions.state"), "\(help.stdout)")
    }

    @Test("a circle replaced without --name keeps its name; a --geojson feature is taken whole")
    func replacedCircleKeepsItsName() throws {
        let workspace = try RegionsCommandTests.Workspace()
        let circle = ["--lat", "49.03", "--lon", "12.04", "--radius"]
        #expect(try workspace.run(["add", "yard"] + circle + ["300", "--name", "Yard North"]).status == 0)
        let replaced = try workspace.run(["add", "yard"] + circle + ["500"])
        #expect(replaced.status == 0 && replaced.stdout.hasPrefix("replaced region \"yard\""), "\(replaced.stderr)")
        var region = try #require(try workspace.regions().first)
        #expect(region.name == "Yard North")
        #expect(region.shape == .circle(center: Coordinate(latitude: 49.03, longitude: 12.04), radius: 500))
        let feature = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[12.04,49.03]},
             "properties":{"id":"yard","radius":400}}
            """
        #expect(try workspace.run(["add", "--geojson", "-"], input: feature).status == 0)
        region = try #require(try workspace.regions().first)
        #expect(region.name == nil)
    }

    @Test("a bow-tie polygon is refused with the crossing edges and where they cross")
    func bowTie() throws {
        let workspace = try RegionsCommandTests.Workspace()
        let feature = """
            {"type":"Feature","properties":{"id":"bow-tie"},"geometry":{"type":"Polygon","coordinates":
             [[[8.0,50.0],[8.1,50.1],[8.0,50.1],[8.1,50.0],[8.0,50.0]]]}}
            """
        let result = try workspace.run(["add", "--geojson", "-"], input: feature)
        #expect(result.status == 2 && workspace.bytes == nil, "\(result.stderr)")
        #expect(
            result.stderr.contains("the edge from position 1 to 2 crosses the edge from position 3 to 4 near [8.05"),
            "\(result.stderr)"
        )
    }

    @Test("a missing region file is one warning that says so, not an error without a reason")
    func missingFile() throws {
        let workspace = try RegionsCommandTests.Workspace()
        let closed = try GPSDTestServer.freePort()
        // The agent looks for the file every second: three looks, one line.
        let run = try WaymarkBinary.run(
            ["run", "--config", workspace.config, "--gpsd", "127.0.0.1:\(closed)", "--for", "3s"]
        )
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains(workspace.regionFile) }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains("warning") == true && lines.first?.contains("No such file or directory") == true)
    }
}
