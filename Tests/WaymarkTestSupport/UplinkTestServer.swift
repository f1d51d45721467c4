import Foundation

/// The fleet backends for a test: `Tests/Fixtures/uplink/uplink-server.py` on a loopback port, answering
/// Traccar's OsmAnd protocol at `/` and JSON Lines batches at `/batch`. It logs every item it accepts (see
/// ``received()``) and fails requests on cue (see ``setFaults(_:)``).
public final class UplinkTestServer: @unchecked Sendable {
    public let port: Int
    /// The temporary directory holding the port file, the log and the server's stderr (`server.log`); removed
    /// when the server is deinitialized.
    public let directory: URL
    private let log: URL
    private let lock = NSLock()
    private var process: Process?

    public var osmAndURL: String { "http://127.0.0.1:\(port)/" }
    public var batchURL: String { "http://127.0.0.1:\(port)/batch" }

    /// Starts the server and waits up to 10 s until it listens.
    /// - Parameters:
    ///   - devices: the device ids the OsmAnd endpoint knows; any other id gets `400 Unknown device`. Nil: every
    ///     id is known.
    ///   - port: the port to listen on; nil for one the kernel chooses.
    ///   - codings: the content codings the batch endpoint decodes (nil: identity, gzip and zstd); a batch in
    ///     another is answered `codingStatus`: 415 with `Accept-Encoding`, or 400 as a server reading it undecoded.
    public init(devices: [String]? = nil, port: Int? = nil, codings: [String]? = nil, codingStatus: Int = 415) throws {
        directory = try Fixtures.temporaryDirectory()
        log = directory.appendingPathComponent("received.jsonl")
        let portFile = directory.appendingPathComponent("port")
        let stderrFile = directory.appendingPathComponent("server.log")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/uplink/uplink-server.py")
        var arguments = ["python3", script.path, "--port-file", portFile.path, "--log", log.path]
        if let devices { arguments += ["--devices", devices.joined(separator: ",")] }
        if let port { arguments += ["--port", "\(port)"] }
        if let codings {
            arguments += ["--codings", codings.joined(separator: ","), "--coding-status", "\(codingStatus)"]
        }
        guard FileManager.default.createFile(atPath: stderrFile.path, contents: nil) else {
            throw TestServerError("cannot create \(stderrFile.path)")
        }
        // Signals unblocked: SIGTERM stops the server as it should, where it waited 5 s for a SIGKILL.
        let process = Process.unblocked("/usr/bin/env", arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        self.process = process
        self.port = try Self.waitForPort(in: portFile, of: process, stderr: stderrFile)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Replaces the server's faults: `json` is the array text, e.g.
    /// `[{"match": {"seq": 17}, "times": 1, "status": 503, "retry_after": "2"}]`.
    ///
    /// A fault may `match` on `seq` (the OsmAnd parameter, or any event of a batch), `path`, or `request`
    /// (the K-th request from 1 after this call); it applies `times` times (default: always) with `status`
    /// (and `retry_after`, `body`), `reset` (an abrupt close, no answer) or `delay` (seconds, then an answer).
    /// The first matching fault wins; an answer with a fault's status is not logged as received.
    public func setFaults(_ json: String) throws {
        let (status, body) = try control(method: "POST", body: "{\"faults\":\(json)}")
        guard status == 200 else { throw TestServerError("setting faults \(json): \(status) \(body)") }
    }

    /// The requests seen (control calls aside), those answered with a fault's status and the connections reset.
    public func counts() throws -> (requests: Int, refused: Int, resets: Int) {
        let (status, body) = try control(method: "GET")
        guard status == 200,
            let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let requests = object["requests"] as? Int, let refused = object["refused"] as? Int,
            let resets = object["resets"] as? Int
        else { throw TestServerError("GET /_control: \(status) \(body)") }
        return (requests, refused, resets)
    }

    /// Every item accepted so far, in order, as the log's objects: `kind` `osmand` (one per position) or
    /// `batch` (one per event), `device`, `connection` (the TCP connection's number) and the decoded fields.
    public func received() throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: log.path) else { return [] }
        // A line is complete once its newline is written: leave out a line still being written.
        let complete = data.split(separator: UInt8(ascii: "\n"))
        let lines = data.last == UInt8(ascii: "\n") ? complete : complete.dropLast()
        return try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw TestServerError("not a JSON object in \(log.path): \(String(decoding: line, as: UTF8.self))")
            }
            return object
        }
    }

    /// Stops the server (SIGTERM, SIGKILL after 5 s) and waits for it; the log stays readable.
    public func stop() {
        let process = lock.withLock {
            defer { self.process = nil }
            return self.process
        }
        process?.stop(graceful: true)
    }

    /// Waits up to 10 s for the port the server writes once it listens.
    private static func waitForPort(in portFile: URL, of process: Process, stderr: URL) throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let text = try? String(contentsOf: portFile, encoding: .utf8)
            if let port = text.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { return port }
            guard process.isRunning, Date() < deadline else {
                process.stop()
                let output = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
                throw TestServerError("uplink-server.py did not start within 10 s (python3 on PATH?): \(output)")
            }
            usleep(10_000)
        }
    }

    /// One HTTP/1.0 exchange with `/_control` on a fresh connection: the status and the body.
    private func control(method: String, body: String = "") throws -> (status: Int, body: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError("socket: errno \(errno)") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard Loopback.connect(descriptor, port: port) else {
            throw TestServerError("connecting to the uplink server on port \(port): errno \(errno)")
        }
        let payload = Array(body.utf8)
        let head = "\(method) /_control HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
        let request = Array("\(head)Content-Length: \(payload.count)\r\n\r\n".utf8) + payload
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw TestServerError("\(method) /_control: send errno \(errno)") }
            sent += count
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw TestServerError("\(method) /_control: recv errno \(errno)") }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts[0].prefix { $0 != "\r" }.split(separator: " ")
        guard parts.count > 1, statusLine.count > 1, let status = Int(statusLine[1]) else {
            throw TestServerError("\(method) /_control: not an HTTP response: \(text)")
        }
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
