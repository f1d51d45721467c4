import Foundation
import Testing
import WaymarkSystem
import WaymarkTestSupport

/// ``Files``, ``AtomicFile`` and ``MappedFile`` on a real file system, and the sentences of their failures.
@Suite struct FilesTests {
    @Test("a whole file, a /proc file whose size says 0, and a missing file's sentence with and without its path")
    func contents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large").path
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(large).write(to: URL(fileURLWithPath: path))
        #expect(try Files.contents(path) == large)
        #expect(try String(decoding: Files.contents("/proc/self/status"), as: UTF8.self).hasPrefix("Name:"))

        let missing = directory.appendingPathComponent("missing").path
        #expect {
            try Files.contents(missing)
        } throws: { error in
            let error = try #require(error as? SystemError)
            return error.description == "cannot open \(missing): No such file or directory"
                && error.withoutPath.description == "cannot open: No such file or directory"
        }
    }

    @Test(
        "the directory that holds a path, whose fsync makes a rename in it durable",
        arguments: [
            ("/var/lib/waymark/spool.db", "/var/lib/waymark"), ("/regions.geojson", "/"),
            ("regions.geojson", "."), ("config/regions.geojson", "config"), ("a//b", "a/"),
        ]
    )
    func directoryOf(_ path: String, _ directory: String) {
        #expect(Files.directory(of: path) == directory)
    }

    @Test("directories made with their parents, listed, sized, cut, tailed and removed")
    func directories() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nested = directory.appendingPathComponent("a/b/c").path
        try Files.makeDirectory(nested)
        try Files.makeDirectory(nested)
        let path = nested + "/file"
        let descriptor = try Files.openForAppending(path)
        try Files.write(Array("0123456789".utf8), to: descriptor, path: path)
        try Files.sync(descriptor, path: path)
        close(descriptor)
        #expect(Files.names(in: nested) == ["file"])
        #expect(Files.names(in: nested + "/none").isEmpty)
        #expect(Files.size(path) == 10)
        #expect(try Files.tail(path, count: 3) == Array("789".utf8))
        #expect(try Files.tail(path, count: 30) == Array("0123456789".utf8))
        #expect(try Files.tail(nested + "/none", count: 3).isEmpty)
        try Files.truncate(path, to: 4)
        #expect(try Files.contents(path) == Array("0123".utf8))
        #expect(Files.remove(path))
        #expect(!Files.remove(path) && Files.size(path) == nil)
    }

    @Test("an atomic write replaces the file whole and leaves no temporary file; a failure names the temporary")
    func atomicFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("states").path
        try AtomicFile.write(Array("first\n".utf8), to: path)
        try AtomicFile.write(Array("second\n".utf8), to: path, syncing: false)
        #expect(try Files.contents(path) == Array("second\n".utf8))
        #expect(Files.names(in: directory.path) == ["states"])

        let unmade = directory.appendingPathComponent("none/states").path
        #expect(throws: SystemError(call: "create", path: unmade + ".tmp", errno: ENOENT)) {
            try AtomicFile.write([1], to: unmade)
        }
    }

    @Test("a mapped file's bytes; an empty file maps nothing; a directory is not mapped")
    func mappedFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mapped").path
        try AtomicFile.write(Array("mapped bytes".utf8), to: path)
        let file = try MappedFile(path: path)
        #expect(file.count == 12 && Array(file.bytes) == Array("mapped bytes".utf8))

        try AtomicFile.write([], to: path)
        #expect(try MappedFile(path: path).bytes.isEmpty)

        #expect {
            try MappedFile(path: directory.path)
        } throws: { error in
            (error as? SystemError)?.description == "cannot map \(directory.path): not a regular file"
        }
    }

    @Test("all of the bytes reach the descriptor")
    func descriptorOutput() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(FileDescriptorOutput.writeAll("a line\n", to: ends[1]))
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == Array("a line\n".utf8))
    }
}
