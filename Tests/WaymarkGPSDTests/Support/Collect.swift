import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

/// Every update of a live connection to `server` until gpsd reports the device gone (end of the log).
func collectLive(from server: GPSDTestServer, seconds: Double = 60) async throws -> [SourceUpdate] {
    let connection = GPSDConnection(.init(host: "127.0.0.1", port: server.port))
    return try await withTimeout(seconds: seconds, "the live replay of port \(server.port)") {
        var updates: [SourceUpdate] = []
        for await update in connection.updates() {
            updates.append(update)
            if case .deviceGone = update.event { break }
        }
        return updates
    }
}

/// Replays `log` through a real gpsd of its own and returns every update of a live connection to it.
func collectLive(log: String) async throws -> [SourceUpdate] {
    let server = try GPSDTestServer(log: Fixtures.gpsdLog(log))
    defer {
        server.stop()
        server.removeFiles()
    }
    return try await collectLive(from: server)
}

/// Every update of a capture replayed from a file.
func collectReplay(_ path: String, decoder: CaptureDecoder = .libgps) throws -> [SourceUpdate] {
    let source = try Replay.open(contentsOf: path, decoder: decoder)
    var updates: [SourceUpdate] = []
    while let update = source.next() { updates.append(update) }
    return updates
}

extension Array where Element == SourceUpdate {
    var locations: [Location] {
        compactMap {
            if case .location(let location) = $0.event { return location }
            return nil
        }
    }

    func count(_ reason: Rejection) -> Int {
        filter { $0.event == .rejected(reason) }.count
    }
}
