import Foundation
import Synchronization
import Testing
import WaymarkTestSupport

@testable import WaymarkGPSD

/// The check every gpsd message passes before libgps sees it (libgps accepts truncated JSON).
@Suite struct JSONLineTests {
    static func isComplete(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer(JSONLine.isComplete)
    }

    @Test(
        "complete objects, and what is not one",
        arguments: [
            (#"{"class":"TPV","mode":3}"#, true), (#"{"a":[1,{"b":"}"}]} "#, true), (#" {"a":1}{"b":2}"#, true),
            (#"{"a":"x\"y\\"}"#, true), ("{\"a\":\"tab\\\tok\"}", true), ("", false), ("   ", false),
            (#"{"a":1"#, false), (#"{"a":"1}"#, false), (#"{"a":1}}"#, false), (#"[1,2]"#, false),
            (#"{"a":1} x"#, false), (#""a""#, false), (#"{"a":"x\"}"#, false), ("{\"a\":\"new\nline\"}", false),
            (#"{"a":"x\"#, false), (#"{"a":[1}"#, false),
        ]
    )
    func cases(_ text: String, _ complete: Bool) {
        #expect(Self.isComplete(text) == complete, "\(text)")
    }

    /// The live check: strings closed, braces and brackets balanced outside them, an object first.
    @Test(
        "balanced lines, and lines cut short",
        arguments: [
            (#"{"class":"TPV","mode":3}"#, true), (#" {"a":[1,{"b":"}"}]}\#r"#, true), (#"{"a":"x\"y\\"}"#, true),
            (#"{"a":1}{"b":2}"#, true), ("", false), ("   ", false), (#"[1,2]"#, false), (#"{"a":1"#, false),
            (#"{"a":"1}"#, false), (#"{"a":1}}"#, false), (#"{"a":"x\"}"#, false), (#"{"a":"x\"#, false),
            (#"{"a":[1,"#, false),
        ]
    )
    func balanced(_ text: String, _ balanced: Bool) {
        #expect(Array(text.utf8).withUnsafeBufferPointer(JSONLine.isBalanced) == balanced, "\(text)")
    }

    /// Found by `scripts/fuzz.sh gpsd-libgps` and `raw-log`: libgps 3.22's `gps_unpack` never returns for some
    /// objects of balanced braces, so such a line must not reach it (a replay of one hung for good).
    @Test(
        "members are a name, a colon and a value; elements are separated by commas",
        arguments: [
            (#"{("class":"TPV","mode":1}"#, false), (#"{ ("class":"TPV"}"#, false), (#"{1"class":"TPV"}"#, false),
            (#"{"class":"TPV","mode":1}{("class":"TPV"}"#, false), (#"{"a":[{x}]}"#, false),
            (#"{"epy":"class":"TPV","mode":3}"#, false), (#"{"lat":3,"{"class":"ERROR"ing":4}"#, false),
            (#"{"a":1,}"#, false), (#"{"a" 1}"#, false), (#"{"a":[1 2]}"#, false), (#"{"a":[1,]}"#, false),
            ("{ }", true), (#"{ "class" : "TPV" , "a" : [ ] }"#, true), (#"{"a":{},"b":[{},[]]}"#, true),
            (#"{"class":"TPV","lat":05.5,"lon":+5,"alt":-}"#, true),
        ]
    )
    func membersAndElements(_ text: String, _ complete: Bool) {
        #expect(Self.isComplete(text) == complete, "\(text)")
    }

    /// The open containers are bits of one word: 64 deep is read, deeper is refused (gpsd nests three deep).
    @Test("nesting: 64 deep is complete, 65 is refused", arguments: [(64, true), (65, false)])
    func nesting(_ depth: Int, _ complete: Bool) {
        let text = "{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        #expect(Self.isComplete(text) == complete, "\(depth)")
    }

    /// The replay runs on a thread of its own, waited for 60 s from when it starts. A time limit on the test would
    /// count from the test's start the time its task then waits for a thread of the cooperative pool: on a 2-core
    /// CI machine whose two pool threads long tests held, that was 586 s, and this test failed without a hang.
    @Test("a replay through libgps of a line that would hang it ends")
    func replayOfAHangingLineEnds() {
        let lines = [
            #"{("class":"TPV","mode":1}"#, #"{"epy":"class":"TPV","mode":3}"#,
            #"{"class":"AIS","type":1,"lat":3,"{"class":"ERROR"ing":4,"second":11}"#, #"{"class":"TPV","mode":1}"#,
        ]
        let capture = Array(lines.joined(separator: "\r\n").utf8)
        let updates = Mutex<Int?>(nil)
        let ended = DispatchSemaphore(value: 0)
        Thread {
            let replay = CaptureReplay(bytes: capture, decoder: .libgps)
            var count = 0
            while replay.next() != nil { count += 1 }
            updates.withLock { $0 = count }
            ended.signal()
        }.start()
        #expect(ended.wait(timeout: .now() + 60) == .success, "the replay did not end within 60 s")
        #expect((updates.withLock { $0 } ?? 0) >= 1)
    }

    @Test("every message of every capture is complete, and no message cut short is")
    func captures() throws {
        let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gpsd-logs").path
        let captures = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".chk") }
        var messages = 0
        for capture in captures {
            let text = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + capture))
            // Bytes, not Characters: "\r\n" is one Character, which a split at "\n" would not cut.
            for line in text.split(separator: UInt8(ascii: "\n")) where line.first == UInt8(ascii: "{") {
                let bytes = Array(line)
                #expect(
                    bytes.withUnsafeBufferPointer(JSONLine.isComplete),
                    "\(capture): \(String(decoding: bytes, as: UTF8.self))"
                )
                #expect(bytes.withUnsafeBufferPointer(JSONLine.isBalanced), "\(capture)")
                // Cut anywhere before its last byte, it is neither (a closing brace is always last).
                for cut in stride(from: 1, to: bytes.count - 1, by: max(1, bytes.count / 40)) {
                    let cutShort = Array(bytes[..<cut])
                    #expect(!cutShort.withUnsafeBufferPointer(JSONLine.isComplete), "\(capture): \(cut)")
                    #expect(!cutShort.withUnsafeBufferPointer(JSONLine.isBalanced), "\(capture): \(cut)")
                }
                messages += 1
            }
        }
        #expect(messages > 5_000)
    }
}
