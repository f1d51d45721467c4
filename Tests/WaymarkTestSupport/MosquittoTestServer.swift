import Foundation

/// A real MQTT broker (Debian's `mosquitto`) on a free port of 127.0.0.1, with persistence in a directory of its
/// own, so that a subscriber's persistent session and the messages queued for it survive ``restart()``; and
/// subscribers (`mosquitto_sub`) whose lines a test reads.
///
/// ``restart()`` proves the broker persisted (its database written at the stop, no save error in its log), or
/// throws: a broker that saved nothing forgets every session, and a test across its restart proves nothing.
/// ``Settings/defaults`` is mosquitto as most fleets run it: only the listener set, so its queue per subscriber
/// (`max_queued_messages`, 1,000) applies.
public final class MosquittoTestServer: @unchecked Sendable {
    /// TLS for the listener: the broker's certificate and key, and the CA that signed them (PEM files).
    public struct TLS: Sendable {
        public var caFile: String
        public var certFile: String
        public var keyFile: String

        public init(caFile: String, certFile: String, keyFile: String) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// How the broker is configured.
    public enum Settings: Sendable {
        /// Persistence in ``directory`` (saved every second and at a stop) and no limit on the queues.
        case persistent
        /// As ``persistent``, but without `user root`: as root, mosquitto becomes the user `mosquitto`, which cannot
        /// write ``directory``, so it saves nothing (what ``restart()`` must catch).
        case persistentAsBrokerUser
        /// mosquitto's defaults: the listener and `allow_anonymous` only; nothing persisted.
        case defaults
    }

    public let port: Int
    public let directory: URL
    public let settings: Settings
    private let tls: TLS?
    private var broker: Process?
    private var subscribers: [(process: Process, output: URL)] = []

    /// Who may connect and what each may do: mosquitto's `password_file` (made with `mosquitto_passwd`) and
    /// `acl_file`; anonymous clients are refused.
    public struct Access: Sendable {
        public var passwordFile: String
        public var aclFile: String

        public init(passwordFile: String, aclFile: String) {
            self.passwordFile = passwordFile
            self.aclFile = aclFile
        }
    }

    /// Starts the broker and waits until it listens.
    public init(tls: TLS? = nil, settings: Settings = .persistent, access: Access? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            throw TestServerError("/usr/sbin/mosquitto is missing: install Debian's mosquitto and mosquitto-clients")
        }
        self.tls = tls
        self.settings = settings
        port = try GPSDTestServer.freePort()
        directory = try Fixtures.temporaryDirectory()
        var config = "listener \(port) 127.0.0.1\n"
        if let access {
            config += "allow_anonymous false\npassword_file \(access.passwordFile)\nacl_file \(access.aclFile)\n"
        } else {
            config += "allow_anonymous true\n"
        }
        if settings != .defaults {
            config += """
                persistence true
                persistence_location \(directory.path)/
                autosave_interval 1
                max_queued_messages 0

                """
        }
        // As root, mosquitto would become the user mosquitto, which cannot write this directory.
        if getuid() == 0 && settings == .persistent { config += "user root\n" }
        if let tls { config += "cafile \(tls.caFile)\ncertfile \(tls.certFile)\nkeyfile \(tls.keyFile)\n" }
        try config.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        for subscriber in subscribers { subscriber.process.stop() }
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker (again) on the same port, and waits until it listens.
    public func start() throws {
        let process = Process.unblocked(
            "/usr/sbin/mosquitto",
            ["-c", directory.appendingPathComponent("mosquitto.conf").path]
        )
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        broker = process
        let deadline = Date().addingTimeInterval(10)
        while !GPSDTestServer.canConnect(port: port) {
            guard process.isRunning, Date() < deadline else {
                throw TestServerError("mosquitto did not listen on \(port): \(log(of: logPath))")
            }
            usleep(20_000)
        }
    }

    /// Stops the broker: SIGTERM, after which it saves its persistence and exits; SIGKILL with `graceful` false.
    public func stop(graceful: Bool = true) {
        broker?.stop(graceful: graceful)
        broker = nil
    }

    /// Stops the broker and starts it again on the same port, once it proved that it saved its database at the
    /// stop (``persisted(since:)``).
    public func restart() throws {
        let stopped = Date()
        stop()
        if settings != .defaults, let failure = persisted(since: stopped) { throw TestServerError(failure) }
        try start()
    }

    /// Nil when the broker wrote its database (`mosquitto.db`) at `since` or later and its log says no save failed;
    /// else what is wrong.
    public func persisted(since: Date) -> String? {
        let database = directory.appendingPathComponent("mosquitto.db").path
        let attributes = try? FileManager.default.attributesOfItem(atPath: database)
        let log = brokerLog
        if let error = log.split(separator: "\n").first(where: { $0.contains("Error saving") }) {
            return "mosquitto did not persist: \(error)"
        }
        guard let written = attributes?[.modificationDate] as? Date else {
            return "mosquitto did not persist: \(database) is missing; its log: \(log.suffix(500))"
        }
        guard written >= since.addingTimeInterval(-0.01) else {
            return "mosquitto did not persist at its stop: \(database) was last written at \(written)"
        }
        return nil
    }

    /// As `Process.unblocked(_:_:)`, but started again 0.2 s after each exit, as a consumer reconnects: mosquitto_sub ends
    /// when a broker killed in its TLS handshake leaves it an error its loop does not retry, and its persistent
    /// session then keeps the messages for a subscriber that never comes back. Each run inherits the output (and
    /// its offset); the runs die with this one (`PR_SET_PDEATHSIG`), however it is stopped.
    private static func restarting(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                """
                import ctypes, signal, subprocess, sys, time
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                libc = ctypes.CDLL("libc.so.6", use_errno=True)
                while True:
                    subprocess.run(sys.argv[1:], preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))
                    time.sleep(0.2)
                """,
                executable,
            ] + arguments
        return process
    }

    /// What the broker wrote.
    public var brokerLog: String { log(of: logPath) }

    private var logPath: String { directory.appendingPathComponent("mosquitto.log").path }

    private func log(of path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Starts `mosquitto_sub` on `topic` with QoS 1 and a persistent session as client `id` (it reconnects by
    /// itself when the broker comes back); returns the path of its output, a line per message:
    /// `TOPIC PAYLOAD`.
    public func subscribe(_ topic: String, id: String) throws -> URL {
        let output = directory.appendingPathComponent("\(id).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-q", "1", "-c", "-i", id, "-v"]
        if let tls { arguments += ["--cafile", tls.caFile] }
        let process = Self.restarting("/usr/bin/mosquitto_sub", arguments)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        subscribers.append((process, output))
        // Subscribed once the broker has the session: then nothing published from now on is lost to it.
        let deadline = Date().addingTimeInterval(10)
        while !brokerLog.contains("as \(id) (") {
            guard Date() < deadline else { throw TestServerError("mosquitto_sub \(id) did not connect: \(brokerLog)") }
            usleep(20_000)
        }
        usleep(200_000)
        return output
    }

    /// The message the broker retains on `topic`, as a new subscriber gets it first; nil when it retains none.
    public func retained(_ topic: String) throws -> [String: Any]? {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "1", "-W", "2", "--retained-only"]
        if let tls { arguments += ["--cafile", tls.caFile] }
        let result = try WaymarkBinary.run(arguments, executable: "/usr/bin/mosquitto_sub")
        guard result.status == 0, let line = result.stdoutLines.first else { return nil }
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// The messages a subscriber received so far: topic and payload.
    public static func messages(in output: URL) -> [(topic: String, payload: [String: Any])] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            let json = line[line.index(after: space)...]
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                return nil
            }
            return (String(line[..<space]), object)
        }
    }
}

/// A certificate authority and a broker certificate for 127.0.0.1, made with `openssl` for one test.
public enum TestCertificates {
    /// Makes `ca.pem`, `server.pem` and `server.key` in `directory` (and `other-ca.pem`, a CA that signed
    /// nothing here), and returns the broker's TLS files.
    public static func make(in directory: URL) throws -> (tls: MosquittoTestServer.TLS, otherCA: String) {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func openssl(_ arguments: [String]) throws {
            let result = try WaymarkBinary.run(arguments, executable: "/usr/bin/openssl")
            guard result.status == 0 else { throw TestServerError("openssl \(arguments): \(result.stderr)") }
        }
        for ca in ["ca", "other-ca"] {
            try openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Waymark test \(ca)",
                "-keyout", path("\(ca).key"), "-out", path("\(ca).pem"),
            ])
        }
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"), "-out",
            path("server.csr"),
        ])
        try "subjectAltName = IP:127.0.0.1\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-days", "2", "-extfile", path("san.ext"), "-out", path("server.pem"),
        ])
        // The broker runs as this user; its key must be readable by it.
        return (
            MosquittoTestServer.TLS(caFile: path("ca.pem"), certFile: path("server.pem"), keyFile: path("server.key")),
            path("other-ca.pem")
        )
    }
}
