import WaymarkCore
import WaymarkStore

/// Batches of events POSTed as JSON Lines (`application/x-ndjson`, coded as asked: gzip, zstd or not at all) to the
/// fleet's own endpoint: one request per closed deferral window (its events through its `deferred_finished`), split
/// at `maxBatchBytes`.
///
/// Each request names the board and its first and last `seq` in headers (`Waymark-Device`, `Waymark-First-Seq`,
/// `Waymark-Last-Seq`), and `Idempotency-Key: DEVICE:FIRST-LAST`, so that a receiver removes a batch sent twice
/// (after a lost answer or a power cut) by its key, or events by (`device`, `seq`). Any 2xx is delivered.
public final class BatchTransport: UplinkTransport {
    public let name = "http"
    private let url: String
    private let deviceID: String
    private let coding: ContentCoding
    private let level: Int
    private let maxBatchBytes: Int
    private let client: HTTPClient

    /// `level` is one of the coding's ``ContentCoding/levels`` (the configuration checks it); nil takes its
    /// ``ContentCoding/defaultLevel``.
    public init(
        url: String,
        deviceID: String,
        coding: ContentCoding,
        level: Int? = nil,
        maxBatchBytes: Int,
        client: HTTPClient
    ) {
        self.url = url
        self.deviceID = deviceID
        self.coding = coding
        self.level = level ?? coding.defaultLevel
        precondition(coding.levels.contains(self.level), "\(coding.rawValue) takes levels \(coding.levels)")
        self.maxBatchBytes = maxBatchBytes
        self.client = client
    }

    public func skippable(_ events: ArraySlice<StoredEvent>) -> Int { 0 }

    public func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
        let batch = Self.batch(events, maxBytes: maxBatchBytes)
        guard let first = batch.first, let last = batch.last else {
            preconditionFailure("BatchTransport.send: no events")
        }
        var body: [UInt8] = []
        body.reserveCapacity(batch.reduce(0) { $0 + $1.line.count + 1 })
        for event in batch {
            body += event.line
            body.append(UInt8(ascii: "\n"))
        }
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
