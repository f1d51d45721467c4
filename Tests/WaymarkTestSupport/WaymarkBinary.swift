import Foundation

/// The built `waymark` executable, run as an operator would run it.
public enum WaymarkBinary {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public var stdoutLines: [Substring] { stdout.split(separator: "\n") }
    }

    /// The executable beside the test bundle (SwiftPM puts every product of a build in one folder).
    /// The binary beside the tests, or `WAYMARK_BINARY` (the measurements run the static release build).
    public static var path: String {
        if let binary = ProcessInfo.processInfo.environment["WAYMARK_BINARY"], !binary.isEmpty { return binary }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // The test binary sits inside `WaymarkPackageTests.xctest` on some toolchains.
        if directory.pathExtension == "xctest" { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("waymark").path
    }

    /// Runs `waymark` (or another `executable`) with `arguments` and waits, at most `timeout` seconds.
    ///
    /// - Parameter environment: the whole environment of the process; nil for this process's.
    public static func run(
        _ arguments: [String],
        executable: String = path,
        environment: [String: String]? = nil,
        timeout: Double = 60
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        process.environment = try isolated(environment ?? ProcessInfo.processInfo.environment, in: directory)
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if !process.isRunning { process.waitUntilExit() }
        if process.isRunning {
            process.stop()
            throw TestServerError("\(executable) \(arguments.joined(separator: " ")) ran longer than \(timeout) s")
        }
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }

    /// `environment` with `WAYMARK_CONFIG` naming a configuration in `directory` that keeps the process off the
    /// board's files (``Fixtures/isolatedSections(in:runtimeDirectory:besides:)``), unless it names one already: a
    /// command given no `--config` reads it instead of an installed `/etc/waymark/waymark.toml`.
    static func isolated(_ environment: [String: String], in directory: URL) throws -> [String: String] {
        guard environment["WAYMARK_CONFIG"] == nil else { return environment }
        let config = directory.appendingPathComponent("default.toml")
        try Fixtures.isolatedSections(in: directory).write(to: config, atomically: true, encoding: .utf8)
        return environment.merging(["WAYMARK_CONFIG": config.path]) { $1 }
    }

    /// Parses JSON Lines output into objects.
    public static func events(_ result: Result) throws -> [[String: Any]] {
        try result.stdoutLines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestServerError("not a JSON object: \(line)")
            }
            return object
        }
    }
}

extension WaymarkBinary {
    /// A `waymark` process left running, its output going to files that can be read while it runs.
    public final class Running: @unchecked Sendable {
        public let process = Process()
        private let directory: URL

        init(_ arguments: [String], executable: String, adding environment: [String: String]) throws {
            directory = try Fixtures.temporaryDirectory()
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stdout").path, contents: nil)
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stderr").path, contents: nil)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = try WaymarkBinary.isolated(
                ProcessInfo.processInfo.environment.merging(environment) { $1 },
                in: directory
            )
            process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
            process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        public var stdout: String {
            (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        }

        public var stderr: String {
            (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        }

        public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits until `condition` holds, at most `seconds`.
        public func wait(seconds: Double, _ what: String, until condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                guard Date() < deadline else { throw TestServerError("\(what) did not happen within \(seconds) s") }
                guard process.isRunning else {
                    throw TestServerError(
                        "waymark exited (status \(process.terminationStatus), \(process.terminationReason)) before \(what): \(stderr)"
                    )
                }
                usleep(20_000)
            }
        }

        /// SIGINT, then waits for the exit status; the output stays readable.
        public func interrupt() -> Int32 {
            signal(SIGINT)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            process.stop()
            return process.terminationStatus
        }

        /// A test that failed before it stopped the agent leaves no process behind.
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Starts `waymark` (or another `executable`) with `arguments`, in this process's environment plus
    /// `environment`.
    public static func start(
        _ arguments: [String],
        executable: String = path,
        adding environment: [String: String] = [:]
    ) throws -> Running {
        try Running(arguments, executable: executable, adding: environment)
    }
}
