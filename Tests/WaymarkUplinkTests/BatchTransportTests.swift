import Foundation
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkUplink

/// How the batch endpoint's requests are cut: at the end of a deferral window, and at `max_batch_bytes`.
@Suite struct BatchTransportTests {
    static func event(_ seq: UInt64, _ kind: StoredEvent.Kind = .location, bytes: Int = 99) -> StoredEvent {
        StoredEvent(
            seq: seq,
            kind: kind,
            time: Timestamp(seconds: 0),
            line: Array(repeating: UInt8(ascii: "x"), count: bytes)
        )
    }

    @Test(
        arguments: [
            // (kinds by seq: L location, F deferred_finished; the most bytes; the seqs of the first request)
            ("LLLFLLF", 10_000, [1, 2, 3, 4]),
            ("FLL", 10_000, [1]),
            ("LLLL", 10_000, [1, 2, 3, 4]),
            ("LLLLF", 250, [1, 2]),
            ("LLLLF", 10, [1]),
            ("L", 1, [1]),
        ] as [(String, Int, [UInt64])]
    )
    func aRequestEndsAtItsWindowOrItsSize(kinds: String, maxBytes: Int, expected: [UInt64]) {
        let events = kinds.enumerated().map { index, kind in
            Self.event(UInt64(index + 1), kind == "F" ? .deferredFinished : .location)
        }
        #expect(BatchTransport.batch(events[...], maxBytes: maxBytes).map(\.seq) == expected)
    }

    /// Events with a `recv`, as live; the error's message holds the member's own text, which the encoder escapes.
    static func events(received: Timestamp?) -> [StoredEvent] {
        let time = Timestamp(seconds: 1_900_000_000, nanoseconds: 250_000_000)
        let location = Location(time: time, latitude: 49.030186667, longitude: 12.080681667, speed: 22.173)
        let events: [Event] = [
            Event(seq: 7, time: time, received: received, kind: .location(location)),
            Event(
                seq: 8,
                time: time,
                received: received,
                kind: .error(ErrorReport(code: .sinkFailure, message: #"x,"recv":"2026" \ "#, subject: "http"))
            ),
            Event(
                seq: 9,
                time: time,
                received: received,
                kind: .deferredFinished(
                    DeferralReport(reason: .timeout, events: 2, distance: 812.5, duration: .seconds(300))
                )
            ),
        ]
        return events.map { StoredEvent($0, encoder: EventEncoder()) }
    }

    /// Issue 44: by default the lines go without `recv`, each exactly as the encoder writes the event without one;
    /// asked, as the spool holds them; a line without `recv` (a replay's) goes as it is either way.
    @Test(arguments: [false, true])
    func aBodyLeavesOutRecvUnlessAsked(sendsReceiptTimes: Bool) {
        let live = Self.events(received: Timestamp(seconds: 1_900_000_001, nanoseconds: 7_000_000))[...]
        let replayed = Self.events(received: nil)[...]
        let lines = { (events: ArraySlice<StoredEvent>) in
            events.map { String(decoding: $0.line, as: UTF8.self) + "\n" }
        }
        let text = { (body: [UInt8]) in String(decoding: body, as: UTF8.self) }
        #expect(lines(live).allSatisfy { $0.contains(#""recv":"2030-03-17T17:46:41.007Z""#) })
        #expect(
            text(BatchTransport.body(live, sendsReceiptTimes: sendsReceiptTimes))
                == (sendsReceiptTimes ? lines(live) : lines(replayed)).joined()
        )
        #expect(text(BatchTransport.body(replayed, sendsReceiptTimes: sendsReceiptTimes)) == lines(replayed).joined())
    }

    @Test(
        arguments: [
            // (a line, the member `recv` in it or nil)
            (#"{"type":"location","seq":1,"time":"T","recv":"R","lat":1}"#, 37..<48),
            (#"{"type":"location","seq":1,"time":"T","lat":1}"#, nil),
            (#"{"type":"error","message":"a\",\"recv\":\"b"}"#, nil),
            (#","recv":"#, nil),
            (#"{"a":1,"recv":"unclosed"#, nil),
            (#"{"a":1,"recv":""#, nil),
            (#"{"a":1,"recv":"","b":2}"#, 6..<16),
            ("", nil),
        ] as [(String, Range<Int>?)]
    )
    func theRecvMemberIsFoundAsAKeyOnly(line: String, expected: Range<Int>?) {
        #expect(BatchTransport.receiptMember(in: Array(line.utf8)) == expected)
    }

    @Test func gzipIsWhatGunzipReads() throws {
        let text = String(repeating: #"{"type":"location","seq":1,"lat":49.0,"lon":12.0}"# + "\n", count: 200)
        let compressed = try Gzip.compress(Array(text.utf8))
        #expect(compressed.starts(with: [0x1F, 0x8B, 8]))
        #expect(compressed.count < text.utf8.count / 10)
        // The trailer: CRC-32 and the input's length modulo 2^32, little-endian.
        let length = compressed.suffix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(length == text.utf8.count)
    }

    /// Issue 44: a body coded zstd is one frame that Debian's `zstd` command reads back, byte for byte, at every
    /// level the sink takes.
    @Test(arguments: [1, 3, 15, 19])
    func zstdIsWhatTheZstdCommandReads(level: Int) throws {
        let text =
            (1...300).map { #"{"type":"location","seq":\#($0),"lat":49.0\#($0 * 37 % 1000),"lon":12.0}"# }
            .joined(separator: "\n") + "\n"
        let coded = try ContentCoding.zstd.encode(Array(text.utf8), level: level)
        #expect(coded.header == "Content-Encoding: zstd")
        #expect(coded.body.starts(with: [0x28, 0xB5, 0x2F, 0xFD]))
        #expect(coded.body.count < text.utf8.count / 5)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.zst")
        try Data(coded.body).write(to: file)
        let decoded = try WaymarkBinary.run(["-d", "-q", "-c", file.path], executable: "/usr/bin/zstd")
        #expect(decoded.status == 0 && decoded.stdout == text, "\(decoded.stderr)")
    }

    /// Issue 44: the answers after which `auto` tries the batch's next coding: a 415, and any refusal of the
    /// events but a 409 (a server that reads a body undecoded finds no JSON in it); not a confirmation, a temporary
    /// failure, or a refusal of the sink's address or account.
    @Test(
        arguments: [
            (DeliveryPolicy.Answer.misconfigured(status: 415, answer: "unsupported"), "HTTP 415"),
            (.refused(status: 400, answer: "bad JSON"), "HTTP 400"),
            (.refused(status: 422, answer: "no"), "HTTP 422"),
            // The same Idempotency-Key still in progress: nothing of the coding.
            (.refused(status: 409, answer: "in progress"), nil),
            (.misconfigured(status: 401, answer: ""), nil),
            (.misconfigured(status: 404, answer: ""), nil),
            (.temporary(reason: "HTTP 503", retryAfter: nil), nil),
            (.confirmed, nil),
        ] as [(DeliveryPolicy.Answer, String?)]
    )
    func theAnswersThatMayRefuseACoding(answer: DeliveryPolicy.Answer, refusal: String?) {
        #expect(BatchTransport.refusalOfCoding(answer) == refusal)
    }

    @Test func identityIsTheBodyAsItIs() throws {
        let coded = try ContentCoding.identity.encode(Array("{}\n".utf8), level: 0)
        #expect(coded.body == Array("{}\n".utf8) && coded.header == nil)
    }

    @Test(
        arguments: [
            ("Retry-After: 120\r\n", "120"),
            ("retry-after:\t Wed, 21 Oct 2015 07:28:00 GMT \r\n", "Wed, 21 Oct 2015 07:28:00 GMT"),
            ("Retry-Afterx: 1\r\n", nil),
            ("Content-Length: 0\r\n", nil),
            ("HTTP/1.1 429 Too Many Requests\r\n", nil),
        ] as [(String, String?)]
    )
    func theRetryAfterHeaderIsFoundInAnyCase(line: String, expected: String?) {
        let bytes = Array(line.utf8)
        let value = bytes.withUnsafeBytes { HTTPClient.value(of: "retry-after", in: $0) }
        #expect(value == expected)
    }
}
