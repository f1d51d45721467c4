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
    /// The sections that keep a test's agent off the board's files: its own spool, logs and runtime files under
    /// `directory` (`[agent]`: agents running side by side never share them, nor `/var/lib/waymark` or
    /// `/run/waymark`), and a gazetteer there that does not exist (`[places] file`), as on a machine without the
    /// places package, never the `/usr/share/waymark/places.bin` an installed package brings. A section that
    /// `settings` define is left to them; `[agent]` comes last, so that keys written after it stay in it.
    public static func isolatedSections(
        in directory: URL,
        runtimeDirectory: String? = nil,
        besides settings: String = ""
    ) -> String {
        var sections = ""
        if !settings.contains("[places]") {
            sections += "[places]\nfile = \"\(directory.appendingPathComponent("no-places.bin").path)\"\n"
        }
        if !settings.contains("[agent]") {
            sections += """
                [agent]
                state_dir = "\(directory.appendingPathComponent("state").path)"
                log_dir = "\(directory.appendingPathComponent("logs").path)"
                runtime_dir = "\(runtimeDirectory ?? directory.appendingPathComponent("run").path)"

                """
        }
        return sections
    }
}
