import WaymarkCore
import WaymarkStore

/// Batches of events POSTed as JSON Lines (`application/x-ndjson`, coded as asked: gzip, zstd or not at all) to the
/// fleet's own endpoint: one request per closed deferral window (its events through its `deferred_finished`), split
/// at `maxBatchBytes`.
///
/// Each request names the board and its first and last `seq` in headers (`Waymark-Device`, `Waymark-First-Seq`,
/// `Waymark-Last-Seq`), and `Idempotency-Key: DEVICE:FIRST-LAST`, so that a receiver removes a batch sent twice
/// (after a lost answer or a power cut) by its key, or events by (`device`, `seq`). Any 2xx is delivered.
///
/// The lines go without `recv` (the board's time of receipt, which the spool and the day log keep) unless
/// `sendsReceiptTimes` asks for it: on a live drive it is a sixth of a coded body, and the agent's Traccar and
/// OwnTracks sinks send no receipt time either. `maxBatchBytes` counts the lines as the spool holds them.
public final class BatchTransport: UplinkTransport {
    public let name = "http"
    private let url: String
    private let deviceID: String
    private let coding: ContentCoding
    private let level: Int
    private let maxBatchBytes: Int
    private let sendsReceiptTimes: Bool
    private let client: HTTPClient

    /// `level` is one of the coding's ``ContentCoding/levels`` (the configuration checks it); nil takes its
    /// ``ContentCoding/defaultLevel``. `sendsReceiptTimes`: whether the lines keep their `recv`.
    public init(
        url: String,
        deviceID: String,
        coding: ContentCoding,
        level: Int? = nil,
        maxBatchBytes: Int,
        sendsReceiptTimes: Bool = false,
        client: HTTPClient
    ) {
        self.url = url
        self.deviceID = deviceID
        self.coding = coding
        self.level = level ?? coding.defaultLevel
        precondition(coding.levels.contains(self.level), "\(coding.rawValue) takes levels \(coding.levels)")
        self.maxBatchBytes = maxBatchBytes
        self.sendsReceiptTimes = sendsReceiptTimes
        self.client = client
    }

    public func skippable(_ events: ArraySlice<StoredEvent>) -> Int { 0 }

    public func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
        let batch = Self.batch(events, maxBytes: maxBatchBytes)
        guard let first = batch.first, let last = batch.last else {
            preconditionFailure("BatchTransport.send: no events")
        }
        var body = Self.body(batch, sendsReceiptTimes: sendsReceiptTimes)
        var headers = [
            "Content-Type: application/x-ndjson", "Waymark-Device: \(deviceID)", "Waymark-First-Seq: \(first.seq)",
            "Waymark-Last-Seq: \(last.seq)", "Idempotency-Key: \(deviceID):\(first.seq)-\(last.seq)",
        ]
        do {
            let coded = try coding.encode(body, level: level)
            body = coded.body
            if let header = coded.header { headers.append(header) }
        } catch {
            return UplinkAttempt(
                sent: batch.count,
                answer: .temporary(reason: "\(error)", retryAfter: nil),
                wireBytes: 0
            )
        }
        return client.attempt(url: url, headers: headers, body: body, sent: batch.count, wallClock: wallClock)
    }

    public func cancel() { client.cancel() }

    /// The JSON Lines of `events`, each line as the spool holds it, or without its `recv` member.
    static func body(_ events: ArraySlice<StoredEvent>, sendsReceiptTimes: Bool) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(events.reduce(0) { $0 + $1.line.count + 1 })
        for event in events {
            if !sendsReceiptTimes, let member = receiptMember(in: event.line) {
                body += event.line[..<member.lowerBound]
                body += event.line[member.upperBound...]
            } else {
                body += event.line
            }
            body.append(UInt8(ascii: "\n"))
        }
        return body
    }

    /// Where `line` holds its `recv` member, its leading comma included: ``EventEncoder`` writes it once, at the
    /// top level, a timestamp string without escapes. A key in the line is the only place its bytes
    /// `,"recv":"` can occur (a quote within a string value is escaped), so the first is the member.
    static func receiptMember(in line: [UInt8]) -> Range<Int>? {
        guard let key = line.firstRange(of: Self.receiptKey),
            let close = line[key.upperBound...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        return key.lowerBound..<close + 1
    }

    private static let receiptKey = Array(#","recv":""#.utf8)

    /// The first events of one request: through the end of the first deferral window among them, and at most
    /// `maxBytes` of lines (always one).
    static func batch(_ events: ArraySlice<StoredEvent>, maxBytes: Int) -> ArraySlice<StoredEvent> {
        var bytes = 0
        var end = events.startIndex
        while end < events.endIndex {
            let event = events[end]
            bytes += event.line.count + 1
            if end > events.startIndex && bytes > maxBytes { break }
            end += 1
            if event.kind == .deferredFinished { break }
        }
        return events[events.startIndex..<end]
    }
}
