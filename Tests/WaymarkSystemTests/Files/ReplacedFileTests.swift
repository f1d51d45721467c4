import Foundation
import Testing
import WaymarkSystem
import WaymarkTestSupport

/// ``ReplacedFile``: the status file and the metrics textfile, rewritten in place of the last, never a part.
@Suite struct ReplacedFileTests {
    @Test("a replaced file: each write whole in place of the last, two inodes changing places, the spare gone at close")
    func replacedFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Its directory is missing, as a runtime directory after a reboot: the first write makes it.
        let path = directory.appendingPathComponent("run/waymark.prom").path
        let spare = path + ".spare"
        let manager = FileManager.default
        func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
        func inode(_ path: String) throws -> Int? {
            try manager.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }

        let file = ReplacedFile(path: path, mode: 0o644)
        try file.write(Array("first, the longest\n".utf8))
        #expect(try contents(path) == "first, the longest\n")
        let firstInode = try inode(path)
        try file.write(Array("second\n".utf8))
        #expect(try contents(path) == "second\n")
        #expect(try contents(spare) == "first, the longest\n", "the spare holds the contents it replaced")
        let secondInode = try inode(path)
        try file.write(Array("third\n".utf8))
        #expect(try contents(path) == "third\n")
        #expect(try inode(path) == firstInode && inode(spare) == secondInode, "nothing made: the two change places")
        #expect(try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o644)

        // Someone else removes the file, then its directory: the next writes make them again.
        try manager.removeItem(atPath: path)
        try file.write(Array("fourth\n".utf8))
        #expect(try contents(path) == "fourth\n")
        try manager.removeItem(atPath: directory.appendingPathComponent("run").path)
        try file.write(Array("fifth\n".utf8))
        #expect(try contents(path) == "fifth\n")

        file.close()
        #expect(!manager.fileExists(atPath: spare))
        #expect(try contents(path) == "fifth\n")
    }

    @Test("a replaced file shared: a second writer renames files of its own; a file replaced by someone is noticed")
    func replacedFileShared() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waymark.prom").path
        func contents() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

        // Two agents on one runtime directory: the first holds the spare, the second writes around it.
        let first = ReplacedFile(path: path, mode: 0o644)
        let second = ReplacedFile(path: path, mode: 0o644)
        for round in 1...3 {
            try first.write(Array("first \(round)\n".utf8))
            #expect(try contents() == "first \(round)\n")
            try second.write(Array("second \(round), longer\n".utf8))
            #expect(try contents() == "second \(round), longer\n")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "waymark.prom", "waymark.prom.spare",
            ],
            "no temporary file left"
        )
        first.close()
        second.close()

        // Someone else replaces the file (mv): its inode is never written where it is the file.
        let file = ReplacedFile(path: path, mode: 0o644)
        try file.write(Array("ours 1\n".utf8))
        try file.write(Array("ours 2\n".utf8))
        try "theirs\n".write(toFile: path + ".new", atomically: false, encoding: .utf8)
        #expect(rename(path + ".new", path) == 0)
        for round in 3...5 {
            try file.write(Array("ours \(round)\n".utf8))
            #expect(try contents() == "ours \(round)\n")
        }
        file.close()
        #expect(try contents() == "ours 5\n")
    }
}
