import Foundation
import WaymarkCore
import WaymarkTestSupport

/// GeographicLib's answers to the inverse problem, from `Tests/Fixtures/geodesy/oracle.py` run by the
/// `python3` on PATH with the PyPI package geographiclib (scripts/install-deps.sh installs both).
///
/// Any failure (no python3, no geographiclib, a crash, a short answer) throws with the reason and what
/// to run, so that the tests comparing with it fail rather than pass without comparing.
enum GeodesyOracle {
    static let script = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/geodesy/oracle.py")

    /// GeographicLib's `Geodesic.WGS84.Inverse` for each pair, in order.
    static func inverse(_ pairs: [GeodesyPair]) throws -> [GeodesicInverse] {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("pairs.csv")
        let output = directory.appendingPathComponent("answers.csv")
        let errors = directory.appendingPathComponent("stderr")
        try pairs.map { $0.csvLine + "\n" }.joined().write(to: input, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path, output.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.stop()
            throw TestServerError("the geodesy oracle (\(script.path)) ran longer than 60 s")
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw TestServerError(
                "the geodesy oracle (python3 \(script.path)) failed with exit \(process.terminationStatus): "
                    + stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                    + ". It needs python3 with the PyPI package geographiclib: scripts/install-deps.sh installs it."
            )
        }
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        guard lines.count == pairs.count else {
            throw TestServerError("the geodesy oracle answered \(lines.count) lines for \(pairs.count) pairs")
        }
        return try lines.map { line in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 3 else { throw TestServerError("the geodesy oracle wrote \(line)") }
            return GeodesicInverse(distance: fields[0], initialAzimuth: fields[1], finalAzimuth: fields[2])
        }
    }
}
