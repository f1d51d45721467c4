import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

/// The logs whose locations must match gpsd's own output epoch for epoch (issue 2's acceptance).
let comparedLogs = [
    "20100411_Geko_Regensburg.log", "bt451.log", "haicom-305N.log", "garmin-10x.log", "motorola-t805.log",
    "bundg_zeus_9.log", "rst39.log", "nl2008u.log", "humminbird-M37.log", "gpsdf.log", "isync.log",
    "saab-r4.log", "synthetic-heading-sentences.log",
]

func expectMatches(_ locations: [Location], oracle: CaptureOracle, _ what: String) {
    #expect(locations.count == oracle.epochs.count, "\(what): epochs with a fix")
    for (location, epoch) in zip(locations, oracle.epochs) {
        #expect(location.time.iso8601 == epoch.time, "\(what): time")
        #expect(abs(location.latitude - epoch.latitude) <= 1e-9, "\(what) \(epoch): latitude \(location.latitude)")
        #expect(abs(location.longitude - epoch.longitude) <= 1e-9, "\(what) \(epoch): longitude \(location.longitude)")
        #expect(location.mode.rawValue == epoch.mode, "\(what) \(epoch): mode")
    }
}

@Suite("Locations equal gpsd's own output, epoch by epoch")
struct CaptureComparisonTests {
    @Test("replay of the .chk capture", arguments: comparedLogs)
    func replay(log: String) throws {
        let oracle = try CaptureOracle(chkPath: Fixtures.gpsdLog(log + ".chk"))
        #expect(!oracle.epochs.isEmpty)
        let updates = try collectReplay(Fixtures.gpsdLog(log + ".chk"))
        expectMatches(updates.locations, oracle: oracle, "replay \(log)")
    }

    @Test(
        "replay with the builtin decoder: the same updates as with gps_unpack, on every fixture capture",
        arguments: Fixtures.gpsdLogsWithCapture()
    )
    func builtinDecoder(log: String) throws {
        let path = Fixtures.gpsdLog(log + ".chk")
        let builtin = try collectReplay(path, decoder: .builtin)
        #expect(builtin.locations.count > 0 || BadInputTests.garbageLogs.contains(log))
        #expect(builtin == (try collectReplay(path)))
    }

    @Test("live through a real gpsd, and the same as replay", arguments: comparedLogs)
    func live(log: String) async throws {
        let updates = try await collectLive(log: log)
        let oracle = try CaptureOracle(chkPath: Fixtures.gpsdLog(log + ".chk"))
        expectMatches(updates.locations, oracle: oracle, "live \(log)")
        let replayed = try collectReplay(Fixtures.gpsdLog(log + ".chk")).locations
        #expect(updates.locations == replayed, "live/replay parity for \(log)")
        guard case .connected(_, let release) = updates.first?.event else {
            Issue.record("the first update is not .connected: \(String(describing: updates.first))")
            return
        }
        #expect(release?.hasPrefix("3.") == true)
    }
}
