import Foundation

/// Checks GPX documents against the official GPX 1.1 schema (`Tests/Fixtures/gpx-schema`) with `xmllint`
/// (Debian's `libxml2-utils`), as a reader that validates would.
public enum GPXSchema {
    public static let path = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gpx-schema/gpx.xsd").path

    /// xmllint's complaints about `document`, or nil when it is valid.
    public static func problems(in document: [UInt8]) throws -> String? {
        let result = try xmllint(["--noout", "--nonet", "--schema", path], document)
        return result.status == 0 ? nil : result.output
    }

    /// xmllint could not evaluate an expression.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The value of an XPath 1.0 expression over `document`, as `xmllint --xpath` prints it.
    public static func evaluate(_ xpath: String, in document: [UInt8]) throws -> String {
        let result = try xmllint(["--nonet", "--xpath", xpath], document)
        guard result.status == 0 else { throw Failure(message: "xmllint --xpath \(xpath): \(result.output)") }
        // Newer xmllints end what they print with a line break.
        return result.output.hasSuffix("\n") ? String(result.output.dropLast()) : result.output
    }

    private static func xmllint(_ arguments: [String], _ document: [UInt8]) throws -> (status: Int32, output: String) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("track.gpx")
        try Data(document).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = arguments + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        while process.isRunning { usleep(1_000) }
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
