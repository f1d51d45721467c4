import Foundation
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
                // Cut anywhere before its last byte, it is not (a closing brace is always last).
                for cut in stride(from: 1, to: bytes.count - 1, by: max(1, bytes.count / 40)) {
                    #expect(!Array(bytes[..<cut]).withUnsafeBufferPointer(JSONLine.isComplete), "\(capture): \(cut)")
                }
                messages += 1
            }
        }
        #expect(messages > 5_000)
    }
}
