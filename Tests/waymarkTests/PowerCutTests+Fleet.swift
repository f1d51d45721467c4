import Foundation
import Testing
import WaymarkTestSupport

extension PowerCutTests {
    /// The remote region set's ids (`fleet-regions.geojson` under `state_dir`), or nil when there is none; a file
    /// that is not a region document is a failure.
    static func remoteRegionIDs(_ path: String, _ label: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let features = document?["features"] as? [[String: Any]]
        #expect(features != nil, "\(label): the remote regions are not a region document: \(data.count) bytes")
        return features?.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
    }

    @Test("setConfiguration and setWaypoints cut before and after their write, fsync and rename: old or new file")
    func fleetEdits() throws {
        guard let lazyFS = try Self.mountLazyFS() else { return }
        let broker = try MosquittoTestServer()
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(FleetStatusTests.drive), linesPerSecond: 50)
        defer {
            gpsd.stop()
            gpsd.removeFiles()
        }
        let board = try FleetStatusTests.Board(
            "bus-040",
            broker: broker,
            gpsd: gpsd.port,
            locations: false,
            fleet: FleetCommandLiveTests.everything
        )
        // The board's state directory on LazyFS.
        let state = lazyFS.mountPoint.appendingPathComponent("fleet-state").path
        let text = try String(contentsOfFile: board.config, encoding: .utf8).replacingOccurrences(
            of: board.directory.appendingPathComponent("state").path,
            with: state
        )
        try text.write(toFile: board.config, atomically: true, encoding: .utf8)
        let configuration = state + "/fleet-config.toml"
        let regions = state + "/fleet-regions.geojson"
        // Each document is written to a temporary file, renamed to `….incoming` and checked, then renamed over the
        // file: the unanchored pattern meets the first rename, the anchored one (`$`) the last.
        var cuts: [(label: String, file: String)] = []
        for name in ["fleet-config\\.toml", "fleet-regions\\.geojson"] {
            for (timing, op) in [("before", "write"), ("after", "write"), ("before", "fsync"), ("after", "fsync")]
                + [("before", "rename"), ("after", "rename")]
            {
                cuts.append(("\(timing) \(op) \(name)", name))
            }
            cuts += [("before rename \(name)$", name + "$"), ("after rename \(name)$", name + "$")]
        }
        var fired = 0
        var kept = 0
        for (index, (label, name)) in cuts.enumerated() {
            try board.start()
            try FleetStatusTests.waitForFleet(broker, seconds: 15, "\(label): online") {
                $0["bus-040"]?["online"] as? Bool == true
            }
            let oldConfiguration = FileManager.default.contents(atPath: configuration)
            let oldRegions = Self.remoteRegionIDs(regions, label)
            let (timing, op) = (String(label.split(separator: " ")[0]), String(label.split(separator: " ")[1]))
            try lazyFS.crash(timing, op, path: name)
            let document = board.directory.appendingPathComponent("command-\(index)")
            let newConfiguration = Array((text + "\n[location]\ndistance_filter = \(20 + index)\n").utf8)
            if name.hasPrefix("fleet-config") {
                try Data(newConfiguration).write(to: document)
                _ = try FleetCommandLiveTests.send(broker, "bus-040", "setConfiguration", document.path, timeout: "3s")
            } else {
                try """
                {"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Stop \(index)","lat":49.01,\
                "lon":12.1,"rad":150,"tst":1700000000,"rid":"stop-\(index)"}]}
                """.write(to: document, atomically: true, encoding: .utf8)
                _ = try FleetCommandLiveTests.send(broker, "bus-040", "setWaypoints", document.path, timeout: "3s")
            }
            if Self.fired(lazyFS) { fired += 1 }
            board.agent.map { Board.kill($0) }
            board.agent = nil
            if lazyFS.isRunning { try lazyFS.clearCache() }
            try lazyFS.remount()
            if name.hasPrefix("fleet-config") {
                let now = FileManager.default.contents(atPath: configuration)
                #expect(now == oldConfiguration || now == Data(newConfiguration), "\(label): a mixed configuration")
                if now != oldConfiguration { kept += 1 }
            } else {
                let now = Self.remoteRegionIDs(regions, label)
                #expect(now == oldRegions || now == ["stop-\(index)"], "\(label): remote regions \(now ?? [])")
                if now != oldRegions { kept += 1 }
            }
        }
        try board.start()
        try FleetStatusTests.waitForFleet(broker, seconds: 15, "online after the last cut") {
            $0["bus-040"]?["online"] as? Bool == true
        }
        #expect(board.agent?.interrupt() == 0)
        #expect(fired == cuts.count, "\(fired) of \(cuts.count) cuts fired")
        // Only the cuts after a rename keep the new file: it was synced before it.
        #expect(kept == 2, "\(kept) cuts kept the new file")
        print("PowerCutTests: \(cuts.count) cuts of the fleet's remote configuration and regions, \(fired) fired")
    }
}
