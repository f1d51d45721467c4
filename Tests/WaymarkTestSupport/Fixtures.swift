import Foundation

/// Paths of the recorded receiver captures in `Tests/Fixtures/gpsd-logs` (origin and licence in its README).
public enum Fixtures {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func gpsdLog(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/gpsd-logs/\(name)").path
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Fixtures {
    /// The `[agent]` section that gives a test's agent its own spool and logs under `directory`, so that
    /// agents running side by side never share them (nor the board's `/var/lib/waymark`).
    public static func agentSection(in directory: URL, runtimeDirectory: String? = nil) -> String {
        """
        [agent]
        state_dir = "\(directory.appendingPathComponent("state").path)"
        log_dir = "\(directory.appendingPathComponent("logs").path)"
        runtime_dir = "\(runtimeDirectory ?? directory.appendingPathComponent("run").path)"

        """
    }
}
