import Foundation
import Testing
import WaymarkTestSupport

@Suite("NMEA and gpsd JSON captures retimed, looped and cut")
struct NMEARetimingTests {
    @Test("shifted sentences keep valid checksums, and captured bad checksums stay bad")
    func checksums() throws {
        #expect(NMEASentence.checksum(of: "$GPGGA,212607.891,,,,,0,00,,,M,0.0,M,,0000*56") == "56")
        for name in ["motorola-t805.log", "20100411_Geko_Regensburg.log", "firefly-II.log", "gpsdf.log"] {
            for sentence in try NMEALog(path: Fixtures.gpsdLog(name)).sentences {
                let shifted = NMEASentence.shifting(sentence, by: 86_400 * 7000 + 3723.25)
                #expect(
                    NMEASentence.hasValidChecksum(shifted) == NMEASentence.hasValidChecksum(sentence),
                    "\(sentence)"
                )
            }
        }
        let firefly = try NMEALog(path: Fixtures.gpsdLog("firefly-II.log")).sentences
        let bad = firefly.filter { !NMEASentence.hasValidChecksum($0) }.count
        #expect(bad >= 20)
        #expect(
            firefly.map { NMEASentence.shifting($0, by: 1e6) }.filter { !NMEASentence.hasValidChecksum($0) }.count
                == bad
        )
        let shifted = NMEASentence.shifting("$GPGGA,212607.891,,,,,0,00,,,M,0.0,M,,0000*56", by: 1)
        #expect(shifted == "$GPGGA,212608.891,,,,,0,00,,,M,0.0,M,,0000*" + NMEASentence.checksum(of: shifted))
        #expect(NMEASentence.hasValidChecksum(shifted))
    }

    @Test("times move across midnight, month and year ends, and back")
    func calendar() {
        let rmc = sentence("GPRMC,235959.50,A,4901.5940,N,01203.9163,E,0.0,131.9,311299,1.6,E,A")
        #expect(
            NMEASentence.shifting(rmc, by: 1)
                == sentence("GPRMC,000000.50,A,4901.5940,N,01203.9163,E,0.0,131.9,010100,1.6,E,A")
        )
        let leap = sentence("GNRMC,120000,A,4901.5940,N,01203.9163,E,0.0,131.9,280224,,,A")
        #expect(
            NMEASentence.shifting(leap, by: 86_400)
                == sentence("GNRMC,120000,A,4901.5940,N,01203.9163,E,0.0,131.9,290224,,,A")
        )
        #expect(
            NMEASentence.shifting(leap, by: 2 * 86_400)
                == sentence("GNRMC,120000,A,4901.5940,N,01203.9163,E,0.0,131.9,010324,,,A")
        )
        let zda = sentence("GPZDA,235959.00,31,12,2025,00,00")
        #expect(NMEASentence.shifting(zda, by: 0.5) == sentence("GPZDA,235959.50,31,12,2025,00,00"))
        #expect(NMEASentence.shifting(zda, by: 1) == sentence("GPZDA,000000.00,01,01,2026,00,00"))
        let newYear = sentence("GPZDA,000000.00,01,01,2026,00,00")
        #expect(NMEASentence.shifting(newYear, by: -1) == zda)
        let gga = sentence("GPGGA,000001,4901.5940,N,01203.9163,E,1,07,1.0,336.7,M,46.6,M,,")
        #expect(
            NMEASentence.shifting(gga, by: -2)
                == sentence("GPGGA,235959,4901.5940,N,01203.9163,E,1,07,1.0,336.7,M,46.6,M,,")
        )
        #expect(NMEASentence.shifting(gga, by: 0.4) == gga, "no fractional digits: rounded to whole seconds")
        let gll = sentence("GPGLL,4901.5940,N,01203.9163,E,165744.123,A,A")
        #expect(NMEASentence.shifting(gll, by: 3600.001) == sentence("GPGLL,4901.5940,N,01203.9163,E,175744.124,A,A"))
    }

    @Test("empty times, other sentences and every other byte stay as they were")
    func otherBytesUnchanged() throws {
        let empty = sentence("GPGGA,,,,,,0,00,,,M,,M,,")
        #expect(NMEASentence.shifting(empty, by: 1234) == empty)
        let proprietary = "$PGRME,5.5,M,7.0,M,8.9,M*28"
        #expect(NMEASentence.shifting(proprietary, by: 1234) == proprietary)
        let log = try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))
        for (original, shifted) in zip(log.sentences, log.shifted(by: 400_000_000.5)) {
            let before = original.split(separator: ",", omittingEmptySubsequences: false)
            let after = shifted.split(separator: ",", omittingEmptySubsequences: false)
            #expect(before.count == after.count)
            let pairs = zip(before.dropLast(), after.dropLast()).enumerated()
            let changed = Set(pairs.filter { $0.element.0 != $0.element.1 }.map(\.offset))
            let allowed: Set<Int> = before[0].hasSuffix("RMC") ? [1, 9] : before[0].hasSuffix("GLL") ? [5] : [1]
            #expect(changed.isSubset(of: allowed), "\(original) -> \(shifted)")
            #expect(before.last?.prefix { $0 != "*" } == after.last?.prefix { $0 != "*" })
        }
    }

    @Test("epochs: grouped by time, untimed sentences with the timed ones before them, dated and midnight-safe")
    func epochs() throws {
        let log = NMEALog(lines: [
            "# comment", "$PGRME,5.5,M,7.0,M,8.9,M*28", sentence("GPGGA,235959,,,,,0,00,,,M,,M,,"), "",
            sentence("GPRMC,235959,V,,,,,,,311299,,"), "$GPGSA,A,1,,,,,,,,,,,,,,,*1E",
            sentence("GPGGA,000001,,,,,0,00,,,M,,M,,"), sentence("GPRMC,000001,V,,,,,,,010100,,"),
        ])
        #expect(log.epochs.map(\.sentences.count) == [4, 2])
        #expect(log.epochs.map(\.offset) == [0, 2])
        #expect(log.start == Date(timeIntervalSince1970: 946_684_799))
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        #expect(motorola.epochs.count == 25)
        #expect(abs(motorola.typicalInterval - 1) < 0.02)
        // 2026-12-31T23:59:59.5: the second epoch, 0.988 s later, is in 2027.
        let retimed = motorola.retimed(firstEpochAt: Date(timeIntervalSince1970: 1_798_761_599.5))
        #expect(retimed[0].hasPrefix("$GPGGA,235959.500,"))
        #expect(retimed[1].hasPrefix("$GPRMC,235959.500,V,,,,,,,311226,"))
        #expect(retimed[3].hasPrefix("$GPRMC,000000.488,V,,,,,,,010127,"))
    }

    @Test("slices by offset, and loops whose epoch times keep increasing, in offsets and in the sentences")
    func looping() throws {
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        let stationary = motorola.epochs(from: 13, to: 25)
        #expect(stationary.epochs.count == 12)
        #expect(stationary.epochs.first?.offset == 0)
        #expect(stationary.sentences.first?.hasPrefix("$GPGGA,212621.000,") == true)
        for log in [stationary, try NMEALog(path: Fixtures.gpsdLog("20100411_Geko_Regensburg.log"))] {
            let looped = log.looped(toCover: log.span * 3.5)
            #expect(looped.epochs.count == log.epochs.count * 4)
            let offsets = looped.epochs.map(\.offset)
            #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
            #expect(looped.span >= log.span * 3.5)
            let reparsed = NMEALog(lines: looped.sentences).epochs.map(\.offset)
            #expect(reparsed.count == offsets.count)
            #expect(zip(reparsed, offsets).allSatisfy { abs($0 - $1) < 0.001 })
        }
    }

    @Test("gpsd JSON captures: looped with increasing times in the same format, and sliced")
    func chkLooping() throws {
        let path = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")
        let chk = try ChkLog(path: path)
        let looped = try ChkLog.looped(path, toCover: 2 * chk.span + 1)
        #expect(looped.count == chk.lines.count * 2)
        let times = looped.compactMap(isoTime)
        #expect(times.first == "2029-11-25T16:57:44.000Z")
        #expect(times.last == "2029-11-25T17:50:18.000Z")  // 17:24:00 + 1576 s + 2 s
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let untimed = { (line: String) in isoTime(line) == nil && NMEASentence.timeOfDay(of: line) == nil }
        #expect(looped[chk.lines.count...].filter(untimed) == chk.lines.filter(untimed))
        let slice = try ChkLog.slice(path, from: 60, to: 120)
        let sliceTimes = Set(slice.compactMap(isoTime))
        #expect(sliceTimes.min() == "2029-11-25T16:58:44.000Z" && sliceTimes.max() == "2029-11-25T16:59:42.000Z")
    }

    @Test("feed server: fresh times for every client, reconnection, no backlog")
    func feedServer() async throws {
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        let server = try NMEAFeedServer(segments: [motorola.epochs(from: 13, to: 25)])
        defer { server.stop() }
        let first = try LineClient(port: server.port)
        let lines = first.lines(for: 2.5)
        #expect(lines.count >= 4)
        expectFresh(lines)
        first.close()
        try await Task.sleep(for: .seconds(1.5))
        #expect(server.connections.count == 1 && server.connections.first?.closed != nil)
        let second = try LineClient(port: server.port)
        let again = second.lines(for: 1.5)
        #expect(again.count >= 2 && again.count <= 4, "no backlog: \(again)")
        expectFresh(again)
        second.close()
        #expect(server.playedEpochs >= 5)
    }

    @Test("feed server: switching to another segment plays it at once, appending after the current one")
    func switching() throws {
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        let fixed = motorola.epochs(from: 13, to: 25)
        let moving = motorola.epochs(from: 6.9, to: 11)
        let server = try NMEAFeedServer(segments: [fixed], loopLast: false)
        defer { server.stop() }
        let client = try LineClient(port: server.port)
        #expect(client.lines(for: 1.2).allSatisfy { $0.text.contains("4839.9411,N") })
        server.switchTo(moving)
        server.append(fixed)
        let lines = client.lines(for: 5.5).filter { $0.text.hasPrefix("$GPRMC") }
        expectFresh(lines)
        let positions = lines.map { $0.text.split(separator: ",")[3] }
        #expect(positions.prefix(4) == ["4839.9488", "4839.9396", "4839.9404", "4839.9411"], "\(positions)")
        #expect(positions.dropFirst(4).allSatisfy { $0 == "4839.9411" })
    }

    @Test("a real gpsd reading the feed reports TPVs with current times")
    func realGPSD() throws {
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        let feed = try NMEAFeedServer(segments: [motorola.epochs(from: 13, to: 25)])
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: 2)
        defer {
            gpsd.stop()
            feed.stop()
        }
        let started = Date()
        let output = try gpspipe(port: gpsd.port, lines: 12, timeout: 15)
        let tpvs = output.filter { $0.contains("\"class\":\"TPV\"") && $0.contains("\"mode\":3") }
        let times = tpvs.compactMap(isoTime).compactMap {
            try? Date($0, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        #expect(times.count >= 3, "\(output)")
        #expect(times.allSatisfy { $0 > started.addingTimeInterval(-1) && $0.timeIntervalSinceNow < 1 }, "\(times)")
        #expect(times.last.map { $0.timeIntervalSinceNow > -2 } == true, "\(times)")
        #expect(gpsd.clientCommands().contains { $0.command.hasPrefix("?WATCH={\"enable\":true,\"json\":true") })
        #expect(feed.connections.count == 1)
    }

    @Test(
        "gpsd releases the device about 61 s after the watch ends, and reconnects at once when watched again",
        .enabled(if: ProcessInfo.processInfo.environment["WAYMARK_SLOW_TESTS"] != nil, "takes 70 s")
    )
    func release() throws {
        let motorola = try NMEALog(path: Fixtures.gpsdLog("motorola-t805.log"))
        let feed = try NMEAFeedServer(segments: [motorola.epochs(from: 13, to: 25)])
        let gpsd = try GPSDFeedServer(feed: feed, debugLevel: 3)
        defer {
            gpsd.stop()
            feed.stop()
        }
        let client = try LineClient(port: gpsd.port)
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(client.lines(for: 3).contains { $0.text.contains("\"class\":\"TPV\"") })
        client.send("?WATCH={\"enable\":false}\n")
        let unwatched = Date()
        while feed.connectedClients > 0 && Date().timeIntervalSince(unwatched) < 70 { _ = client.lines(for: 0.1) }
        let closed = try #require(feed.connections.first?.closed)
        #expect((59...63).contains(closed.timeIntervalSince(unwatched)), "\(closed.timeIntervalSince(unwatched))")
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        let rewatched = Date()
        #expect(client.lines(for: 3).contains { $0.text.contains("\"class\":\"TPV\"") })
        #expect(feed.connections.count == 2)
        let reopened = try #require(feed.connections.last?.opened)
        #expect(reopened.timeIntervalSince(rewatched) < 0.5)
        let commands = gpsd.clientCommands().map(\.command)
        #expect(commands.contains("?WATCH={\"enable\":false}"), "\(commands)")
        #expect(gpsd.debugLog().contains("gpsd:INFO: closing GPS=tcp://127.0.0.1:\(feed.port)"))
    }

    private func sentence(_ body: String) -> String {
        "$" + body + "*" + NMEASentence.checksum(of: "$" + body)
    }

    /// Every RMC's time (and date) is within 0.5 s of when it arrived.
    private func expectFresh(_ lines: [ReceivedLine], sourceLocation: SourceLocation = #_sourceLocation) {
        let rmcs = lines.filter { $0.text.hasPrefix("$GPRMC") }
        #expect(!rmcs.isEmpty, sourceLocation: sourceLocation)
        for (received, rmc) in rmcs.map({ ($0.time, $0.text) }) {
            #expect(NMEASentence.hasValidChecksum(rmc), sourceLocation: sourceLocation)
            let fields = rmc.split(separator: ",", omittingEmptySubsequences: false)
            let stamp =
                "20\(fields[9].suffix(2))-\(fields[9].dropFirst(2).prefix(2))-\(fields[9].prefix(2))T"
                + "\(fields[1].prefix(2)):\(fields[1].dropFirst(2).prefix(2)):\(fields[1].dropFirst(4))Z"
            let time = try? Date(stamp, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let delay = time.map { received.timeIntervalSince($0) }
            #expect(
                delay.map { abs($0) < 0.5 } == true,
                "\(rmc): \(String(describing: delay))",
                sourceLocation: sourceLocation
            )
        }
    }
}

/// The first `"time"` value of a gpsd JSON line.
private func isoTime(_ line: String) -> String? {
    guard let range = line.range(of: "\"time\":\"") else { return nil }
    return String(line[range.upperBound...].prefix { $0 != "\"" })
}

/// The first `lines` lines `gpspipe -w` prints for gpsd on `port`, or what it printed within `timeout` seconds.
private func gpspipe(port: Int, lines: Int, timeout: Double) throws -> [String] {
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("gpspipe.out")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gpspipe")
    process.arguments = ["-w", "-n", "\(lines)", "127.0.0.1:\(port)"]
    process.standardOutput = try FileHandle(forWritingTo: file)
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    process.stop()
    return try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
}

/// A line and when it arrived.
private struct ReceivedLine {
    let time: Date
    let text: String
}

/// A blocking TCP client of 127.0.0.1 that collects the lines it receives.
private final class LineClient {
    private let descriptor: Int32
    private var isOpen = true

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard Loopback.connect(descriptor, port: port) else { throw TestServerError("connect to \(port): \(errno)") }
    }

    /// The complete lines received within `seconds`, without their CR LF, with when each was received.
    func lines(for seconds: Double) -> [ReceivedLine] {
        var received: [ReceivedLine] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var readable = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&readable, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .newlines)
                received.append(ReceivedLine(time: Date(), text: line))
                pending.removeSubrange(...end)
            }
        }
        return received
    }

    /// Sends `text` as it is.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func close() {
        if isOpen { Glibc.close(descriptor) }
        isOpen = false
    }

    deinit { close() }
}
