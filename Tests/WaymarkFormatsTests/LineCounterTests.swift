import Testing

@testable import WaymarkFormats

@Suite("Line numbers of byte offsets")
struct LineCounterTests {
    @Test(
        "LF, CRLF and lone CR each end one line, asked forward or backward",
        arguments: ["\n", "\r\n", "\r"]
    )
    func lineEnds(separator: String) {
        let lines = ["first", "second", "", "fourth"]
        let bytes = Array(lines.joined(separator: separator).utf8)
        let starts = lines.indices.map { index in
            lines[..<index].reduce(0) { $0 + $1.utf8.count + separator.utf8.count }
        }
        var counter = LineCounter(bytes)

        #expect(starts.map { counter.line(at: $0) } == [1, 2, 3, 4])
        #expect(starts.reversed().map { counter.line(at: $0) } == [4, 3, 2, 1])
        #expect(counter.line(at: bytes.count + 10) == 4)
        #expect(counter.line(at: starts[1] - 1) == 1)
    }
}
