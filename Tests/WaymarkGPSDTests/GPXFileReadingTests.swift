import Foundation
import Testing
import WaymarkCore
import WaymarkGPSD
import WaymarkGPX
import WaymarkTestSupport

@Suite("Reading GPX files from disk")
struct GPXFileReadingTests {
    /// Writes `text` to a new temporary file, runs `body` with its path, and removes the file.
    private func withTemporaryFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appending(path: "waymark-\(UUID().uuidString).gpx")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    @Test("a file on disk parses like its bytes")
    func readsFile() throws {
        let text = GPXTestDocument.track(#"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>"#)

        let file = try withTemporaryFile(text) { path in try GPXFile.read(contentsOf: path) }

        #expect(file == (try GPXFile.parse(Array(text.utf8), fileName: "test.gpx")))
        #expect(file.locations.count == 1)
    }

    @Test("a file that cannot be opened is an error naming its path")
    func missingFile() {
        let path = "/nonexistent-waymark-dir/route.gpx"

        let error = #expect(throws: GPXError.self) { try GPXFile.read(contentsOf: path) }

        #expect(error?.code == .unreadable)
        #expect(error?.description == "\(path): cannot open: No such file or directory")
    }

    @Test("a directory is an error naming its path")
    func directory() {
        let path = FileManager.default.temporaryDirectory.path

        let error = #expect(throws: GPXError.self) { try GPXFile.read(contentsOf: path) }

        #expect(error?.code == .unreadable)
        #expect(error?.description.hasPrefix("\(path): cannot") == true)
    }

    @Test("a malformed file's error names its path and line")
    func malformedFile() throws {
        let error = try withTemporaryFile("<gpx>\n<trk>\n</gpx>\n") { path in
            (path, #expect(throws: GPXError.self) { try GPXFile.read(contentsOf: path) })
        }

        #expect(error.1?.description == "\(error.0):3: expected </trk>, found </gpx>")
    }
}
