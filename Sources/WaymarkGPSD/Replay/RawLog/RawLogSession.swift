import Glibc
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// One private gpsd reading one raw log for ``RawLogCapture``: the feed listener, gpsd, the watching client,
/// and the loop that serves the feed and reads gpsd's reports in one `poll`. Every descriptor is closed and
/// gpsd stopped when the session ends, however it ends.
final class RawLogSession {
    private let path: String
    private let trap: InterruptTrap
    private var feedListener: Int32
    private let devicePath: String
    private let gpsd: PrivateGPSD
    private var client: Int32
    private var feed: Int32 = -1

    /// Starts gpsd on a free port (another one if that port was taken meanwhile) and watches it.
    init(program: GPSDProgram, path: String, trap: InterruptTrap) throws(ReplayError) {
        self.path = path
        self.trap = trap
        let (listener, feedPort) = try LoopbackSocket.listen()
        devicePath = "tcp://127.0.0.1:\(feedPort)"
        var started: (PrivateGPSD, Int32)?
        do throws(ReplayError) {
            for attempt in 1...3 {
                let gpsd = try PrivateGPSD(program: program, port: try LoopbackSocket.freePort(), device: devicePath)
                if let client = try Self.connect(to: gpsd, path: path, trap: trap) {
                    started = (gpsd, client)
                    break
                }
                gpsd.stop()
                if attempt == 3 {
                    throw ReplayError(
                        "\(path): \(program.path) did not start (\(gpsd.exitDescription)), so the raw log was not read",
                        code: .gpsdFailed
                    )
                }
            }
        } catch {
            close(listener)
            throw error
        }
        guard let (gpsd, client) = started else { preconditionFailure("three attempts end in a throw") }
        feedListener = listener
        self.gpsd = gpsd
        self.client = client
    }

    deinit { end() }

    /// Stops gpsd and closes every descriptor; once is enough, later calls do nothing.
    func end() {
        gpsd.stop()
        for descriptor in [feedListener, feed, client] where descriptor >= 0 { close(descriptor) }
        (feedListener, feed, client) = (-1, -1, -1)
    }

    /// The receive buffer asked for the client's socket: 4 MB, or what the kernel allows (`net.core.rmem_max`).
    static let receiveBuffer: Int32 = 4 << 20

    /// Feeds `feedBytes` to gpsd, paced by ``FeedPacer``, and collects its output until gpsd reports the end of
    /// the log. Every pass reads gpsd's output to the end (`EAGAIN`) before more of the log goes.
    func run(_ feedBytes: [UInt8]) throws(ReplayError) -> RawLogCapture {
        var filter = GPSDOutputFilter(devicePath: devicePath)
        let watch = #"?WATCH={"enable":true,"json":true,"nmea":true}"# + "\n"
        guard Self.sendAll(Array(watch.utf8), to: client) else { throw failure("refused the watch") }
        var pacer = FeedPacer(total: feedBytes.count, capacity: LoopbackSocket.receiveBuffer(of: client))
        var sent = 0
        var partial: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var lastProgress = SystemClocks.monotonic()
        while true {
            if let signal = trap.signal { throw Self.interrupted(by: signal, path, while: "gpsd read the raw log") }
            var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: gpsd.stderr, events: Int16(POLLIN), revents: 0))
            if feed < 0 {
                descriptors.append(pollfd(fd: feedListener, events: Int16(POLLIN), revents: 0))
            } else if sent < pacer.limit {
                descriptors.append(pollfd(fd: feed, events: Int16(POLLOUT), revents: 0))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), pacer.settling(sent: sent) ? 1 : 100)
            if descriptors[1].revents != 0 { gpsd.drainStderr() }
            if feed < 0, let accepted = LoopbackSocket.accept(feedListener) {
                feed = accepted
                lastProgress = SystemClocks.monotonic()
            }
            if feed >= 0, sent < pacer.limit {
                let count = SystemCall.retryingInterrupts {
                    feedBytes.withUnsafeBytes { all in
                        send(feed, all.baseAddress! + sent, pacer.limit - sent, Int32(MSG_NOSIGNAL))
                    }
                }
                if count > 0 {
                    sent += count
                    lastProgress = SystemClocks.monotonic()
                } else if count < 0, errno != EAGAIN {
                    throw failure("closed the log's feed after \(sent) of \(feedBytes.count) bytes")
                }
            }
            // All that gpsd has said so far, before any more of the log goes.
            var heard = 0
            while true {
                let count = SystemCall.retryingInterrupts { read(client, &buffer, buffer.count) }
                if count == 0 {
                    throw failure(
                        gpsd.hasExited
                            ? "exited while it read the log"
                            : "dropped waymark's connection after \(sent) bytes of the log"
                    )
                }
                if count < 0 {
                    if errno == EAGAIN { break }
                    throw failure("broke the connection: \(SystemError.reason(errno))")
                }
                heard += count
                partial.append(contentsOf: buffer[..<count])
                var start = 0
                while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    if filter.take(partial[start..<newline]) == .end { return RawLogCapture(filter, endReported: true) }
                    start = newline + 1
                }
                partial.removeFirst(start)
            }
            let now = SystemClocks.monotonic()
            if heard > 0 {
                lastProgress = now
                pacer.heard(heard)
                if pacer.overflowed {
                    throw failure(
                        "answered \(pacer.step) bytes of the log with \(pacer.stepOutput), more than waymark's "
                            + "connection surely holds (\(pacer.limitOutput)), so some may be lost: nothing replayed; "
                            + "raise net.core.rmem_max"
                    )
                }
            }
            let asleep = heard == 0 && pacer.settling(sent: sent) && gpsd.isAsleep
            pacer.passed(sent: sent, asleep: asleep, now: now)
            let quiet = now - lastProgress
            if sent == feedBytes.count, quiet > RawLogCapture.quietEnd {
                return RawLogCapture(filter, endReported: false)
            }
            if quiet > RawLogCapture.stallLimit { throw failure("stalled: it neither read the log nor reported") }
        }
    }

    /// gpsd failed: `what` it did, its exit status and last words. A signal that came meanwhile is the reason
    /// instead (Ctrl-C at a terminal reaches gpsd too, which may end first).
    private func failure(_ what: String) -> ReplayError {
        if let signal = trap.signal { return Self.interrupted(by: signal, path, while: "gpsd read the raw log") }
        _ = gpsd.hasExited
        gpsd.drainStderr()
        return ReplayError("\(path): gpsd \(what) (\(gpsd.exitDescription))", code: .gpsdFailed)
    }

    /// `drive.log: SIGINT while gpsd read the raw log: stopped, nothing replayed`.
    private static func interrupted(by signal: Int32, _ path: String, while what: String) -> ReplayError {
        ReplayError(
            "\(path): \(InterruptTrap.name(of: signal)) while \(what): stopped, nothing replayed",
            code: .interrupted,
            signal: signal
        )
    }

    /// A connection to the just started `gpsd` once it listens, non-blocking; nil if gpsd exited first.
    private static func connect(to gpsd: PrivateGPSD, path: String, trap: InterruptTrap) throws(ReplayError) -> Int32? {
        let deadline = SystemClocks.monotonic() + RawLogCapture.startLimit
        while SystemClocks.monotonic() < deadline {
            if let signal = trap.signal { throw interrupted(by: signal, path, while: "gpsd started") }
            if let client = try LoopbackSocket.connect(port: gpsd.port, receiveBuffer: receiveBuffer) {
                LoopbackSocket.setNonBlocking(client)
                return client
            }
            gpsd.drainStderr()
            if gpsd.hasExited {
                gpsd.drainStderr()  // Its last words, written before it exited.
                return nil
            }
            usleep(10_000)
        }
        throw ReplayError(
            "\(path): gpsd did not listen on 127.0.0.1:\(gpsd.port) within \(RawLogCapture.startLimit)",
            code: .gpsdFailed
        )
    }

    private static func sendAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = SystemCall.retryingInterrupts {
                bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN {
                usleep(1_000)
            } else {
                return false
            }
        }
        return true
    }
}
