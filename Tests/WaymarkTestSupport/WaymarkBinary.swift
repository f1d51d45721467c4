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
    public static var path: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // The test binary sits inside `WaymarkPackageTests.xctest` on some toolchains.
        if directory.pathExtension == "xctest" { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("waymark").path
    }

    /// Runs `waymark` with `arguments` and waits, at most `timeout` seconds.
    public static func run(_ arguments: [String], timeout: Double = 60) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw TestServerError("waymark \(arguments.joined(separator: " ")) ran longer than \(timeout) s")
        }
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
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
