import Foundation
import Testing
import WaymarkAgent
import WaymarkTestSupport

/// `waymark run --print`'s writer: a reader on a pipe sees each batch as it comes; a file gets 64 KB writes.
@Suite struct JSONLinesWriterTests {
    static let line = Array(#"{"type":"location","seq":1}"#.utf8)

    @Test("Live to a pipe, a batch is written as it comes: the reader has it before any flush")
    func pipeGetsEachBatch() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        let writer = JSONLinesWriter.live(descriptor: ends[1])
        writer.deliver([], lines: [Self.line])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(count == Self.line.count + 1, "the line waited in the writer's buffer")
        #expect(Array(buffer.prefix(max(count, 0))) == Self.line + [UInt8(ascii: "\n")])
    }

    @Test("Live to a regular file, lines wait for 64 KB or the flush")
    func fileGetsLargeWrites() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = JSONLinesWriter.live(descriptor: descriptor)
        writer.deliver([], lines: [Self.line])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        let many = [[UInt8]](repeating: Self.line, count: (1 << 16) / Self.line.count)
        writer.deliver([], lines: many)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == (many.count + 1) * (Self.line.count + 1))
        writer.deliver([], lines: [Self.line])
        writer.flush()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == (many.count + 2) * (Self.line.count + 1))
    }
}
