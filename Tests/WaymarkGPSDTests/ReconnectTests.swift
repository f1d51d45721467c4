import Foundation
import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkTestSupport

@Suite("gpsd going away and coming back", .serialized)
struct ReconnectTests {
    @Test("no gpsd at start: unavailable, retried with growing delays, no crash")
    func noGPSD() async throws {
        let port = try GPSDTestServer.freePort()
        let connection = GPSDConnection(
            .init(port: port, reconnectMinimum: .milliseconds(10), reconnectMaximum: .milliseconds(80))
        )
        let delays = try await withTimeout(seconds: 20, "four connection attempts") {
            var delays: [Duration] = []
            for await update in connection.updates() {
                guard case .unavailable(let server, let reason, let retryIn) = update.event else { continue }
                #expect(server == "127.0.0.1:\(port)")
                #expect(reason.contains("connect"), "reason: \(reason)")
                delays.append(retryIn ?? .zero)
                if delays.count == 5 { break }
            }
            return delays
        }
        // Nominal 10, 20, 40, 80, 80 ms, each shortened by at most 20 % jitter (GPSDSessionTests hold the delays
        // to their values; here they are the ones the thread waits and reports).
        let nominal: [Double] = [0.01, 0.02, 0.04, 0.08, 0.08]
        for (delay, expected) in zip(delays, nominal) {
            #expect(delay.secondsValue <= expected + 1e-9 && delay.secondsValue >= expected * 0.8 - 1e-9)
        }
    }

    @Test("a server that is not gpsd: named as such, and backed off like an outage")
    func notGPSD() async throws {
        let directory = try Fixtures.temporaryDirectory()
        let page = directory.appendingPathComponent("page.html")
        try "HTTP/1.0 200 OK\r\n\r\n<html>\n<body>not gpsd</body>\n</html>\n\n\n\n\n".write(
            to: page,
            atomically: true,
            encoding: .utf8
        )
        let port = try GPSDTestServer.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        server.arguments = ["-u", "OPEN:\(page.path)", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork"]
        try server.run()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        while !GPSDTestServer.canConnect(port: port) { try await Task.sleep(for: .milliseconds(20)) }
        let connection = GPSDConnection(
            .init(port: port, reconnectMinimum: .milliseconds(20), reconnectMaximum: .milliseconds(80))
        )
        let outages = try await withTimeout(seconds: 20, "three attempts at a server that is not gpsd") {
            var outages: [(reason: String, retryIn: Duration?)] = []
            for await update in connection.updates() {
                if case .connected = update.event { Issue.record("a web page was taken for gpsd") }
                if case .unavailable(_, let reason, let retryIn) = update.event { outages.append((reason, retryIn)) }
                if outages.count == 3 { break }
            }
            return outages.map { "\($0.reason)|\($0.retryIn?.secondsValue ?? 0)" }
        }
        #expect(
            outages.allSatisfy {
                $0.contains("gpsd's protocol; check host and port") || $0.contains("gpsd's protocol (")
            },
            "\(outages)"
        )
        let delays = outages.compactMap { Double($0.split(separator: "|").last ?? "") }
        #expect(delays.count == 3 && delays[2] > delays[0], "the delay grows: \(delays)")
    }

    @Test("a peer that stalls in the middle of a line does not hold the thread")
    func stalledPeer() async throws {
        try await connect(toPeerSending: #"{"class":"VERSION","release":"3.22"}\#n{"class":"TPV","mode":3,"lat":1"#) {
            _ in
        }
    }

    @Test("connected to a silent gpsd, the thread sleeps until gpsd sends or a stop comes")
    func silentPeer() async throws {
        try await connect(toPeerSending: #"{"class":"VERSION","release":"3.22"}\#n"#) { threadName in
            // Asleep in its wait (a loaded machine may take a moment to get it there): 1.5 s of silence wake it
            // hardly at all (a signal for another test's child process may land on it). A thread that looks for a
            // stop on a 200 ms timer wakes 7 times.
            for _ in 0..<1000 where ProcessResources.state(ofThread: threadName) != "S" {
                try await Task.sleep(for: .milliseconds(2))
            }
            let asleep = try #require(ProcessResources.voluntarySwitches(ofThread: threadName))
            try await Task.sleep(for: .milliseconds(1500))
            let after = try #require(ProcessResources.voluntarySwitches(ofThread: threadName))
            #expect(after - asleep <= 2, "woke \(after - asleep) times in 1.5 s of silence")
        }
    }

    /// Connects to a peer that sends `text` and then nothing; once connected, runs `whileConnected` with the
    /// connection thread's name. Then the stream is gone: the thread, waiting for more, must notice and close.
    private func connect(
        toPeerSending text: String,
        _ whileConnected: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        let peer = try StalledPeer(sending: Array(text.utf8))
        defer { peer.stop() }
        let port = peer.port
        let connection = GPSDConnection(.init(port: port))
        let threadName = "gpsd \(port)"
        try await withTimeout(seconds: 20, "the connection to the peer on port \(port)") {
            var iterator = connection.updates().makeAsyncIterator()
            guard case .connected = await iterator.next()?.event else {
                Issue.record("no .connected from the peer's VERSION line")
                return
            }
            try await whileConnected(threadName)
            withExtendedLifetime(iterator) {}
        }
        try await Self.waitForEnd(of: threadName, port: port)
    }

    @Test("with the default backoff, the retries are 1 s, 2 s, 4 s ... less their jitter, and locations follow")
    func defaultBackoff() async throws {
        let server = try GPSDTestServer(log: Fixtures.gpsdLog("haicom-305N.log"))
        defer {
            server.stop()
            server.removeFiles()
        }
        let connection = GPSDConnection(.init(port: server.port))
        #expect(connection.configuration.reconnectMinimum == .seconds(1))
        let retries = try await withTimeout(seconds: 60, "a restart with the default backoff") {
            var iterator = connection.updates().makeAsyncIterator()
            var retries: [Duration?] = []
            func next(_ matches: (SourceEvent) -> Bool) async -> Bool {
                while let update = await iterator.next() {
                    if case .unavailable(_, _, let retryIn) = update.event { retries.append(retryIn) }
                    if matches(update.event) { return true }
                }
                return false
            }
            #expect(await next { if case .location = $0 { true } else { false } })
            server.stop()
            #expect(await next { if case .unavailable = $0 { true } else { false } })
            try server.start()
            #expect(await next { if case .connected = $0 { true } else { false } })
            #expect(await next { if case .location = $0 { true } else { false } })
            return retries
        }
        // Not timed: under the whole suite the test's own task may wait seconds for a thread of the pool, and gpsd
        // start late. The delays announced are the default backoff's: 1 s doubling, each less up to 20 % jitter.
        #expect(!retries.isEmpty)
        for (attempt, retry) in retries.enumerated() {
            let nominal = min(.seconds(1 << min(attempt, 30)), connection.configuration.reconnectMaximum)
            let delay = try #require(retry)
            #expect(delay > nominal * 0.8 - .milliseconds(1) && delay <= nominal, "attempt \(attempt): \(delay)")
        }
    }

    @Test("gpsd restarted 20 times: retries within the backoff's 1 s, locations follow, no thread or socket leaks")
    func restarts() async throws {
        let server = try GPSDTestServer(log: Fixtures.gpsdLog("haicom-305N.log"))
        defer {
            server.stop()
            server.removeFiles()
        }
        let port = server.port
        let connection = GPSDConnection(
            .init(port: port, reconnectMinimum: .milliseconds(200), reconnectMaximum: .seconds(1))
        )
        let threadName = "gpsd \(port)"
        try await withTimeout(seconds: 120, "20 gpsd restarts") {
            var iterator = connection.updates().makeAsyncIterator()
            // Every retry announced waits at most the backoff's maximum, however many gpsd's restart takes.
            func next(_ what: String, _ matches: (SourceEvent) -> Bool) async throws {
                while let update = await iterator.next() {
                    if case .unavailable(_, _, let retryIn) = update.event {
                        #expect(
                            retryIn.map { $0 <= .seconds(1) } == true,
                            "\(what): retry in \(String(describing: retryIn))"
                        )
                    }
                    if matches(update.event) { return }
                }
                throw TestServerError("the stream ended before \(what)")
            }
            try await next("the first location") { if case .location = $0 { true } else { false } }
            #expect(ProcessResources.threads(named: threadName) == 1)
            #expect(ProcessResources.sockets(toPort: port) == 1)
            for round in 1...20 {
                // Mostly killed, as a crash would; every fifth round a graceful stop.
                server.stop(graceful: round % 5 == 0)
                try await next("gpsd_unavailable in round \(round)") {
                    if case .unavailable = $0 { true } else { false }
                }
                try server.start()
                try await next("the connection in round \(round)") { if case .connected = $0 { true } else { false } }
                try await next("a location in round \(round)") { if case .location = $0 { true } else { false } }
                #expect(ProcessResources.threads(named: threadName) == 1, "round \(round): threads")
                #expect(ProcessResources.sockets(toPort: port) == 1, "round \(round): sockets to gpsd")
            }
        }
        // The stream is gone: the thread stops and closes its socket.
        try await Self.waitForEnd(of: threadName, port: port)
    }

    /// Expects the connection's thread to end and its socket to close within 800 ms, looking every 20 ms.
    private static func waitForEnd(of threadName: String, port: Int) async throws {
        let deadline = ContinuousClock.now + .milliseconds(800)
        while ProcessResources.threads(named: threadName) != 0 || ProcessResources.sockets(toPort: port) != 0,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(ProcessResources.threads(named: threadName) == 0)
        #expect(ProcessResources.sockets(toPort: port) == 0)
    }
}
