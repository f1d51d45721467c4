import Foundation

/// A virtual NMEA receiver on a TCP port of 127.0.0.1, for gpsd to read as a `tcp://127.0.0.1:PORT` device.
///
/// It plays a script of segments back to back on a timeline that runs whether or not anyone is connected, as
/// a receiver keeps running: each epoch is sent at its own time (its offset divided by `speed` after the start
/// of its segment) to every client connected at that moment, with its times rewritten to that moment (UTC
/// now), lines ending in CR LF. A client that connects late gets what is current, never a backlog. Any number
/// of successive connections is accepted (gpsd closes the device when no client watches and reopens it later);
/// ``connections`` records them. Each segment starts one ``NMEALog/typicalInterval`` after the last epoch of
/// the previous one; when the script runs out the last segment is repeated (`loopLast`) or the receiver falls
/// silent.
public final class NMEAFeedServer: @unchecked Sendable {
    /// One connection from a client (gpsd).
    public struct Connection: Sendable, Equatable {
        /// When it was accepted.
        public let opened: Date
        /// When the client closed it or sending failed, nil while it is open.
        public let closed: Date?
    }

    /// The port on 127.0.0.1 the receiver listens on.
    public let port: Int
    private let engine: FeedEngine

    /// Starts the receiver's timeline now with `segments` (the first epoch is sent at once).
    /// - Parameters:
    ///   - speed: how many seconds of capture are played per second (2 plays twice as fast).
    ///   - loopLast: whether the last segment repeats forever once reached; if not, the receiver falls silent
    ///     at the end of the script.
    public init(segments: [NMEALog], speed: Double = 1, loopLast: Bool = true) throws {
        precondition(speed > 0 && speed.isFinite, "speed must be positive")
        let (listener, port) = try Self.listen()
        self.port = port
        engine = FeedEngine(listener: listener, segments: segments, speed: speed, loopLast: loopLast)
        let engine = engine
        let thread = Thread { engine.run() }
        thread.name = "NMEAFeedServer:\(port)"
        thread.start()
    }

    deinit { stop() }

    /// Adds `segment` to the end of the script (it starts at once if the receiver had fallen silent).
    public func append(_ segment: NMEALog) { engine.append(segment) }

    /// Plays `segment` from its beginning at once, dropping the rest of the script.
    public func switchTo(_ segment: NMEALog) { engine.switchTo(segment) }

    /// Every connection accepted so far, in order.
    public var connections: [Connection] { engine.connectionHistory }

    /// How many clients are connected now.
    public var connectedClients: Int { connections.filter { $0.closed == nil }.count }

    /// How many epochs were played so far (sent, or due while nobody was connected).
    public var playedEpochs: Int { engine.playedEpochs }

    /// How many epochs were sent to at least one client.
    public var sentEpochs: Int { engine.sentEpochs }

    /// Stops the receiver: closes the listener and every connection, and waits for its thread (at most 2 s).
    public func stop() { engine.stop() }

    /// A listening socket on 127.0.0.1 at a port from ``GPSDTestServer/freePort()``.
    private static func listen() throws -> (Int32, Int) {
        var lastError: Int32 = 0
        for _ in 0..<20 {
            let port = try GPSDTestServer.freePort()
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard listener >= 0 else { throw TestServerError("socket: \(errno)") }
            var one: Int32 = 1
            setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if Loopback.bind(listener, port: port, listening: true) != nil { return (listener, port) }
            lastError = errno
            close(listener)
        }
        throw TestServerError("NMEAFeedServer could not listen on 127.0.0.1: errno \(lastError)")
    }
}

/// The receiver's state and its thread's loop; every member is used under `lock`, except in `run()`'s own
/// socket calls.
private final class FeedEngine: @unchecked Sendable {
    private struct Client {
        let descriptor: Int32
        let index: Int
    }

    private let lock = NSLock()
    private let listener: Int32
    private let speed: Double
    private let loopLast: Bool
    private let finished = DispatchSemaphore(value: 0)
    private var script: [NMEALog]
    private var segmentStart: Date
    private var nextEpoch = 0
    private var lastScheduled: Date
    private var silent = false
    private var stopping = false
    private var stopped = false
    private var clients: [Client] = []
    private var history: [NMEAFeedServer.Connection] = []
    private var played = 0
    private var sent = 0

    init(listener: Int32, segments: [NMEALog], speed: Double, loopLast: Bool) {
        self.listener = listener
        self.speed = speed
        self.loopLast = loopLast
        script = segments.filter { !$0.epochs.isEmpty }
        segmentStart = Date()
        lastScheduled = segmentStart
        silent = script.isEmpty
    }

    var connectionHistory: [NMEAFeedServer.Connection] { lock.withLock { history } }
    var playedEpochs: Int { lock.withLock { played } }
    var sentEpochs: Int { lock.withLock { sent } }

    func append(_ segment: NMEALog) {
        guard !segment.epochs.isEmpty else { return }
        lock.withLock {
            script.append(segment)
            guard silent else { return }
            silent = false
            nextEpoch = 0
            segmentStart = max(Date(), segmentStart)
        }
    }

    func switchTo(_ segment: NMEALog) {
        lock.withLock {
            script = segment.epochs.isEmpty ? [] : [segment]
            silent = script.isEmpty
            nextEpoch = 0
            segmentStart = Date()
        }
    }

    func stop() {
        let wait = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        guard wait else { return }
        _ = finished.wait(timeout: .now() + 2)
    }

    /// The thread's loop: accept, notice closed connections, send what is due, until stopped.
    func run() {
        while !lock.withLock({ stopping }) {
            waitForActivity(upTo: 0.02)
            acceptPending()
            for (epoch, time) in dueEpochs() { send(epoch.retimed(to: time)) }
        }
        lock.withLock {
            for client in clients { close(client.descriptor) }
            clients = []
            history = history.map { $0.closed == nil ? .init(opened: $0.opened, closed: Date()) : $0 }
        }
        close(listener)
        finished.signal()
    }

    /// Polls the listener and the clients, and closes the clients that hung up.
    private func waitForActivity(upTo seconds: Double) {
        let current = lock.withLock { clients }
        var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        descriptors += current.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), Int32(seconds * 1000)) > 0 else { return }
        for (client, entry) in zip(current, descriptors.dropFirst()) where entry.revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(client.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { drop(client) }
        }
    }

    private func acceptPending() {
        while true {
            var readable = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            guard poll(&readable, 1, 0) > 0 else { return }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            lock.withLock {
                clients.append(Client(descriptor: descriptor, index: history.count))
                history.append(.init(opened: Date(), closed: nil))
            }
        }
    }

    /// The epochs due by now with the wall time each is due at, advancing the script; epochs more than 2 s
    /// late (the thread was held up) are counted as played but not returned, so clients never get a backlog.
    private func dueEpochs() -> [(NMEALog.Epoch, Date)] {
        lock.withLock {
            var due: [(NMEALog.Epoch, Date)] = []
            let now = Date()
            while !silent, let segment = script.first, nextEpoch < segment.epochs.count {
                let epoch = segment.epochs[nextEpoch]
                let time = segmentStart.addingTimeInterval(epoch.offset / speed)
                guard time <= now else { break }
                if now.timeIntervalSince(time) < 2 { due.append((epoch, time)) }
                lastScheduled = max(lastScheduled, time)
                played += 1
                nextEpoch += 1
                if nextEpoch == segment.epochs.count { advanceScript(after: segment) }
            }
            return due
        }
    }

    /// Moves to the next segment (or repeats the last), one typical interval after the last epoch.
    private func advanceScript(after segment: NMEALog) {
        nextEpoch = 0
        segmentStart = lastScheduled.addingTimeInterval(segment.typicalInterval / speed)
        if script.count > 1 {
            script.removeFirst()
        } else if !loopLast {
            script = []
            silent = true
        }
    }

    private func send(_ sentences: [String]) {
        let text = sentences.map { $0 + "\r\n" }.joined()
        let bytes = Array(text.data(using: .isoLatin1) ?? Data(text.utf8))
        let current = lock.withLock { clients }
        var delivered = false
        for client in current {
            if write(bytes, to: client.descriptor) {
                delivered = true
            } else {
                drop(client)
            }
        }
        if delivered { lock.withLock { sent += 1 } }
    }

    /// Sends all of `bytes` without blocking; false when the connection failed (EPIPE, ECONNRESET, ...). Bytes
    /// a client is too slow to take are dropped, as a serial line would lose them.
    private func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            }
        }
        return true
    }

    private func drop(_ client: Client) {
        lock.withLock {
            guard let position = clients.firstIndex(where: { $0.descriptor == client.descriptor }) else { return }
            clients.remove(at: position)
            close(client.descriptor)
            history[client.index] = .init(opened: history[client.index].opened, closed: Date())
        }
    }
}
