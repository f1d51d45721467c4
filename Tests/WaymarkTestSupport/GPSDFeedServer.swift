import Foundation

/// A real gpsd from Debian's packages reading an ``NMEAFeedServer`` as its `tcp://` device, with its debug
/// output kept for the test.
///
/// What gpsd 3.22 does with the device (measured): it connects to the feed when the first client sends
/// `?WATCH={"enable":true}`, and closes that connection about 61 s (`RELEASE_TIMEOUT` 60 s) after the last
/// watcher disabled its watch or disconnected; a watch enabled again within that time keeps the same
/// connection, one enabled later makes gpsd connect again at once. At debug level 2 (`LOG_CLIENT`) gpsd logs
/// every client command, `gpsd:CLIENT: <= client(0): ?WATCH={"enable":false}\x0a`, and everything it sends;
/// level 3 (`LOG_INF`) adds `gpsd:INFO: opening TCP feed at 127.0.0.1, port P.` and
/// `gpsd:INFO: closing GPS=tcp://127.0.0.1:P (7)`.
public final class GPSDFeedServer: @unchecked Sendable {
    /// One line gpsd wrote to stderr, with when it was read.
    public struct LogLine: Sendable {
        /// When the line was read from gpsd's stderr.
        public let time: Date
        /// The line, without its newline.
        public let text: String
    }

    /// gpsd's client port on 127.0.0.1.
    public let port: Int
    /// The receiver gpsd reads.
    public let feed: NMEAFeedServer
    private let directory: URL
    private let debugLevel: Int?
    private let output = LogCollector()
    private var gpsd: Process?

    /// Starts gpsd on `feed` and waits until it listens.
    /// - Parameter debugLevel: gpsd's `-D` level for the captured stderr (2 shows client commands, 3 also the
    ///   device opening and closing); nil for none.
    public init(feed: NMEAFeedServer, port: Int? = nil, debugLevel: Int? = 3) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd") else {
            throw TestServerError("/usr/sbin/gpsd is missing: install Debian's gpsd and gpsd-clients")
        }
        self.feed = feed
        self.port = try port ?? GPSDTestServer.freePort()
        self.debugLevel = debugLevel
        directory = try Fixtures.temporaryDirectory()
        try start()
    }

    deinit {
        stop()
        removeFiles()
    }

    /// Everything gpsd wrote to stderr so far.
    public func debugLog() -> String {
        output.lines.map { $0.text + "\n" }.joined()
    }

    /// The lines gpsd wrote to stderr so far, with their times.
    public func debugLines() -> [LogLine] { output.lines }

    /// The commands gpsd received from its clients, oldest first (needs debug level 2 or more), as the client
    /// sent them without the newline: `?WATCH={"enable":true,"json":true}`.
    public func clientCommands() -> [(time: Date, command: String)] {
        output.lines.compactMap { line in
            guard line.text.hasPrefix("gpsd:CLIENT: <= client("), let colon = line.text.range(of: "): ") else {
                return nil
            }
            var command = String(line.text[colon.upperBound...])
            while command.hasSuffix("\\x0a") || command.hasSuffix("\\x0d") { command.removeLast(4) }
            return command == "eof read" ? nil : (line.time, command)
        }
    }

    /// Stops gpsd: SIGKILL, or with `graceful` SIGTERM first (see ``Process/stop(graceful:patience:)``).
    public func stop(graceful: Bool = false) {
        gpsd?.stop(graceful: graceful)
        gpsd = nil
    }

    /// Removes gpsd's temporary directory.
    public func removeFiles() { try? FileManager.default.removeItem(at: directory) }

    private func start() throws {
        var arguments = ["-N", "-b", "-S", "\(port)", "-F", directory.appendingPathComponent("ctl.sock").path]
        if let debugLevel { arguments += ["-D", "\(debugLevel)"] }
        arguments.append("tcp://127.0.0.1:\(feed.port)")
        // Every signal unblocked: a graceful stop is gpsd's own shutdown on SIGTERM, not a SIGKILL 5 s later.
        let process = Process.unblocked("/usr/sbin/gpsd", arguments)
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()  // Process closes its copy of the pipe's write end, so the reader sees gpsd's exit.
        output.collect(from: pipe.fileHandleForReading)
        gpsd = process
        try GPSDTestServer.waitUntilListening(port: port, gpsd: gpsd)
    }
}

/// Reads a pipe on its own thread until end of file, keeping the lines with the time they were read.
private final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [GPSDFeedServer.LogLine] = []
    private var partial: [UInt8] = []

    var lines: [GPSDFeedServer.LogLine] { lock.withLock { collected } }

    func collect(from handle: FileHandle) {
        let thread = Thread { [self] in
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                append(buffer[0..<count])
            }
            try? handle.close()
        }
        thread.start()
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        let now = Date()
        lock.withLock {
            partial += bytes
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: partial[..<newline], as: UTF8.self)
                collected.append(.init(time: now, text: text))
                partial.removeSubrange(...newline)
            }
        }
    }
}
