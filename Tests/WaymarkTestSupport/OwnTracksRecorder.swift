import Foundation

/// The OwnTracks Recorder (`Tests/Tools/owntracks-recorder`, GPL, a separate program), built once per machine and
/// run against a test's broker: the consumer OwnTracks users run, whose store is what a fleet sees.
public final class OwnTracksRecorder: @unchecked Sendable {
    public let store: URL
    private let broker: MosquittoTestServer
    private let executable: String
    private var process: Process?
    private var log: URL { store.appendingPathComponent("recorder.log") }

    /// Builds the Recorder when this machine has no build of it yet, initializes a store and starts it subscribed
    /// to `owntracks/#` on `broker` with a persistent QoS 1 session; returns once the broker has the session.
    public init(broker: MosquittoTestServer) throws {
        self.broker = broker
        executable = try Self.build()
        store = try Fixtures.temporaryDirectory()
        let initialized = try WaymarkBinary.run(["-S", store.path, "--initialize"], executable: executable)
        guard initialized.status == 0 else { throw TestServerError("ot-recorder --initialize: \(initialized.stderr)") }
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: store)
    }

    /// Starts the Recorder (again) on the same store and session.
    public func start() throws {
        let before = broker.brokerLog.components(separatedBy: "as recorder (").count
        let process = Process.unblocked(
            executable,
            [
                "-S", store.path, "-H", "127.0.0.1", "-p", "\(broker.port)", "-A", "0", "--norevgeo", "--quiet", "-q",
                "1", "-i", "recorder", "owntracks/#",
            ]
        )
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while broker.brokerLog.components(separatedBy: "as recorder (").count == before {
            guard process.isRunning, Date() < deadline else {
                throw TestServerError("ot-recorder did not connect: \(String(broker.brokerLog.suffix(500)))")
            }
            usleep(20_000)
        }
        usleep(200_000)
    }

    /// Stops the Recorder (SIGTERM, which it sees: it is started with every signal unblocked) and waits until it
    /// has finished its message and exited: its session stays with the broker, which queues for it. Killed, it
    /// could lose the message in hand: libmosquitto 2.0 acknowledges a QoS 1 message before the Recorder stores it.
    public func stop() {
        process?.stop(graceful: true, patience: 60)
        process = nil
    }

    /// The last 1,000 characters of the Recorder's output, for a test's failure message.
    public var logTail: String {
        String(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(1_000))
    }

    /// The `seq` of every location the Recorder stored (repeats included), from its `.rec` files.
    public func storedLocationSeqs() -> [Int] {
        storedLocations().compactMap { $0["seq"] as? Int }
    }

    /// The location messages the Recorder stored, in the order of its `.rec` files' lines.
    public func storedLocations() -> [[String: Any]] {
        let rec = store.appendingPathComponent("rec")
        guard let files = FileManager.default.enumerator(atPath: rec.path) else { return [] }
        var locations: [[String: Any]] = []
        for case let file as String in files where file.hasSuffix(".rec") {
            let text = (try? String(contentsOf: rec.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let brace = line.firstIndex(of: "{"),
                    let object = try? JSONSerialization.jsonObject(with: Data(line[brace...].utf8)) as? [String: Any],
                    object["_type"] as? String == "location"
                else { continue }
                locations.append(object)
            }
        }
        return locations
    }

    /// The position the Recorder keeps as the device's last (the newest by `tst`).
    public func last(user: String, device: String) -> [String: Any]? {
        let path = store.appendingPathComponent("last/\(user)/\(device)/\(user)-\(device).json")
        guard let data = FileManager.default.contents(atPath: path.path) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// The path of `ot-recorder`, built from `Tests/Tools/owntracks-recorder` into the temporary directory once
    /// (`build-debian.sh` installs its Debian build dependencies when they are missing).
    static func build() throws -> String {
        try Fixtures.buildTool("owntracks-recorder", into: "waymark-ot-recorder-1.0.1")
    }
}
