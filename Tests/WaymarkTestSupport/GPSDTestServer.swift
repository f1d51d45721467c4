import Foundation
import Synchronization

/// A real gpsd from Debian's packages, replaying one capture (the whole-log recipe):
/// `socat` serves the log on a loopback port, gpsd reads it as a `tcp://` device when the first client
/// watches, and `# EOF` at the end makes gpsd report the device deactivated.
public final class GPSDTestServer: @unchecked Sendable {
    public let port: Int
    private let feedPort: Int
    private let directory: URL
    private let feed: URL
    private let feedDelay: Double
    /// Lines of the log socat sends a second; nil sends it all at once.
    private let linesPerSecond: Double?
    private var gpsd: Process?
    private var socat: Process?

    /// Starts socat and gpsd for `log` and waits until gpsd listens.
    /// - Parameters:
    ///   - feedDelay: seconds socat waits after gpsd connects before it sends the log, so that several clients
    ///     can watch from the first sentence.
    ///   - linesPerSecond: paces the log, with its own times kept (unlike ``NMEAFeedServer``, which rewrites
    ///     them): the Regensburg drive's 9,931 lines at 250 a second take 40 s; nil sends it all at once.
    public init(log: String, port: Int? = nil, feedDelay: Double = 0, linesPerSecond: Double? = nil) throws {
        directory = try Fixtures.temporaryDirectory()
        feed = directory.appendingPathComponent("feed.log")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes.append(contentsOf: Array("\n# EOF\n".utf8))
        try bytes.write(to: feed)
        self.port = try port ?? Self.freePort()
        feedPort = try Self.freePort()
        self.feedDelay = feedDelay
        self.linesPerSecond = linesPerSecond
        if let linesPerSecond {
            try """
            import sys, time
            start, interval = time.monotonic(), 1 / \(linesPerSecond)
            for number, line in enumerate(open(sys.argv[1], "rb")):
                time.sleep(max(0, start + number * interval - time.monotonic()))
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()

            """.write(to: directory.appendingPathComponent("pace.py"), atomically: true, encoding: .utf8)
        }
        try start()
    }

    deinit { stop() }

    /// Starts gpsd (again) with a fresh feed of the log.
    public func start() throws {
        for tool in ["/usr/sbin/gpsd", "/usr/bin/socat"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestServerError(
                "\(tool) is missing: install Debian's gpsd, gpsd-clients and socat (scripts/test.sh does)"
            )
        }
        let source =
            if linesPerSecond != nil {
                "SYSTEM:sleep \(feedDelay); python3 \(directory.appendingPathComponent("pace.py").path) \(feed.path)"
            } else if feedDelay > 0 {
                "SYSTEM:sleep \(feedDelay); cat \(feed.path)"
            } else {
                "OPEN:\(feed.path)"
            }
        socat = try Self.launch(
            "/usr/bin/socat",
            ["-u", source, "TCP-LISTEN:\(feedPort),bind=127.0.0.1,reuseaddr"]
        )
        // gpsd opens the feed when its first client watches: socat must listen by then. Probing it with a
        // connection would use up the one connection it serves, so look for its socket instead.
        let deadline = Date().addingTimeInterval(10)
        while !Self.isListening(port: feedPort) {
            guard Date() < deadline, socat?.isRunning == true else {
                throw TestServerError("socat did not listen on the feed port \(feedPort)")
            }
            usleep(5_000)
        }
        gpsd = try Self.launch(
            "/usr/sbin/gpsd",
            [
                "-N", "-b", "-S", "\(port)", "-F", directory.appendingPathComponent("ctl.sock").path,
                "tcp://127.0.0.1:\(feedPort)",
            ]
        )
        try Self.waitUntilListening(port: port, gpsd: gpsd)
    }

    /// Stops gpsd and socat and waits for both: SIGKILL, as a crash or a power cut would, or with
    /// `graceful`, SIGTERM (gpsd's own shutdown: it is started with signals unblocked) and SIGKILL after 5 s.
    public func stop(graceful: Bool = false) {
        for process in [gpsd, socat].compactMap({ $0 }) { process.stop(graceful: graceful) }
        gpsd = nil
        socat = nil
    }

    public func removeFiles() { try? FileManager.default.removeItem(at: directory) }

    /// Ports handed out by ``freePort()`` in this process: tests run in parallel, and the kernel may give a
    /// port just closed by one test to the next.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A TCP port on 127.0.0.1 that was free a moment ago and that no other test of this process was given.
    public static func freePort() throws -> Int {
        for _ in 0..<100 {
            let port = try unusedPort()
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw TestServerError("no free port that this process has not handed out already")
    }

    /// Whether a socket listens on `port` of 127.0.0.1, from `/proc/net/tcp`, without connecting to it.
    public static func isListening(port: Int) -> Bool {
        let table = ProcessResources.readProcFile("/proc/net/tcp")
        let local = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] == "0A"
        }
    }

    private static func unusedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError("socket: \(errno)") }
        defer { close(descriptor) }
        guard let port = Loopback.bind(descriptor, listening: false) else { throw TestServerError("bind: \(errno)") }
        return port
    }

    /// Starts `path` with every signal unblocked, so that a graceful ``stop(graceful:)`` is one.
    private static func launch(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process.unblocked(path, arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits up to 10 s until the gpsd just started accepts connections on `port`.
    static func waitUntilListening(port: Int, gpsd: Process?) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if canConnect(port: port) { return }
            guard gpsd?.isRunning == true else { throw TestServerError("gpsd exited at start (port \(port))") }
            usleep(20_000)
        }
        throw TestServerError("gpsd did not listen on port \(port) within 10 s")
    }

    public static func canConnect(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Loopback.connect(descriptor, port: port)
    }
}

public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
