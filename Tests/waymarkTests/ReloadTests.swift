import Foundation
import Testing
import WaymarkTestSupport

@Suite("SIGHUP reloads the configuration")
struct ReloadTests {
    @Test("a valid file is applied: the agent moves to the new gpsd; an invalid one is rejected and kept")
    func reload() throws {
        let first = try GPSDTestServer(log: Fixtures.gpsdLog("haicom-305N.log"))
        let second = try GPSDTestServer(log: Fixtures.gpsdLog("motorola-t805.log"))
        let directory = try Fixtures.temporaryDirectory()
        defer {
            first.stop()
            second.stop()
            first.removeFiles()
            second.removeFiles()
            try? FileManager.default.removeItem(at: directory)
        }
        let path = directory.appendingPathComponent("waymark.toml").path
        func write(port: Int, extra: String = "") throws {
            let gpsd = "[gpsd]\nhost = \"127.0.0.1\"\nport = \(port)\n"
            let text = Fixtures.isolatedSections(in: directory) + gpsd + extra
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write(port: first.port)
        let agent = try WaymarkBinary.start(["run", "--print", "--config", path])
        // haicom-305N was recorded in Brisbane (27° S), motorola-t805 at 48° N.
        try agent.wait(seconds: 20, "a location from the first gpsd") { agent.stdout.contains("\"lat\":-27.") }
        #expect(!agent.stdout.contains("\"lat\":48."))

        try write(port: second.port)
        agent.signal(SIGHUP)
        try agent.wait(seconds: 20, "a location from the second gpsd") {
            agent.stdout.split(separator: "\n").contains {
                $0.contains("\"type\":\"location\"") && !$0.contains("\"lat\":-")
            }
        }
        #expect(agent.stderr.contains("reconnecting to gpsd at 127.0.0.1:\(second.port)"))

        try write(port: 0, extra: "colour = \"red\"\n")
        agent.signal(SIGHUP)
        try agent.wait(seconds: 10, "the rejection") { agent.stderr.contains("rejected") }
        let port = try #require(Fixtures.line("port = 0", inFile: path))
        let colour = try #require(Fixtures.line("colour = \"red\"", inFile: path))
        #expect(agent.stderr.contains("waymark.toml:\(port): [gpsd] port = 0: must be"))
        #expect(agent.stderr.contains("waymark.toml:\(colour): [gpsd] colour: unknown key"))
        #expect(agent.process.isRunning)
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
    }
}
