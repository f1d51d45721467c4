import Foundation

/// Paths of the recorded receiver captures in `Tests/Fixtures/gpsd-logs` (origin and licence in its README).
public enum Fixtures {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func gpsdLog(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/gpsd-logs/\(name)").path
    }

    /// Every raw receiver log in `Tests/Fixtures/gpsd-logs` that has its gpsd 3.22 capture (`NAME.log.chk`),
    /// by name, sorted: a log added with its `.chk` joins every test that takes this list.
    public static func gpsdLogsWithCapture() -> [String] {
        let directory = packageRoot.appendingPathComponent("Tests/Fixtures/gpsd-logs").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".log") && names.contains($0 + ".chk") }.sorted()
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
    /// places package, never the `/usr/share/waymark/places.bin` an installed package brings; and no address file
    /// (`addresses = ""`), never the `/usr/share/waymark/addresses.bin` of `waymark-addresses`. A section that
    /// `settings` define is left to them, so pass the text that follows; it must begin with a table header.
    public static func isolatedSections(
        in directory: URL,
        runtimeDirectory: String? = nil,
        besides settings: String = ""
    ) -> String {
        var sections = ""
        if !settings.contains("[agent]") {
            sections += """
                [agent]
                state_dir = "\(directory.appendingPathComponent("state").path)"
                log_dir = "\(directory.appendingPathComponent("logs").path)"
                runtime_dir = "\(runtimeDirectory ?? directory.appendingPathComponent("run").path)"

                """
        }
        if !settings.contains("[places]") {
            sections += "[places]\nfile = \"\(directory.appendingPathComponent("no-places.bin").path)\"\n"
            sections += "addresses = \"\"\n"
        }
        return sections
    }
}

extension Fixtures {
    /// The number (from 1) of the first line of the file at `path` that is `text`, for the messages that name a
    /// configuration's lines: a test's configuration begins with ``isolatedSections(in:runtimeDirectory:besides:)``.
    public static func line(_ text: String, inFile path: String) -> Int? {
        let lines = (try? String(contentsOfFile: path, encoding: .utf8))?.split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        return lines?.firstIndex { $0 == text }.map { $0 + 1 }
    }
}
