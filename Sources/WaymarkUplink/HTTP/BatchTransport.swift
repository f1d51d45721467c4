import WaymarkCore
import WaymarkStore

/// Batches of events POSTed as JSON Lines (`application/x-ndjson`, coded as asked: zstd, gzip or not at all) to the
/// fleet's own endpoint: one request per closed deferral window (its events through its `deferred_finished`), split
/// at `maxBatchBytes`.
///
/// Each request names the board and its first and last `seq` in headers (`Waymark-Device`, `Waymark-First-Seq`,
/// `Waymark-Last-Seq`), and `Idempotency-Key: DEVICE:FIRST-LAST`, so that a receiver removes a batch sent twice
/// (after a lost answer or a power cut) by its key, or events by (`device`, `seq`). Any 2xx is delivered.
///
/// Given several codings (`content_encoding = "auto"`: zstd, then gzip), it sends in the first. A server that
/// refuses a body in it (``refusalOfCoding(_:)``: a 415, as RFC 7694 has a server answer a coding it does not
/// decode, or another refusal of the batch, as from a server that reads the body undecoded and finds no JSON), or
/// a coding whose library cannot be loaded, sends the same batch again at once in the next, with the same key;
/// when the server takes that, the sink sends in that coding from then on, and says so once
/// (``UplinkAttempt/notice``). Nothing is quarantined for a coding: a batch refused in every coding is refused for
/// its events or the settings, by the last coding's answer unless that is a 415 (then an earlier one's), and the
/// next batch starts from the first coding again.
///
/// The lines go without `recv` (the board's time of receipt, which the spool and the day log keep) unless
/// `sendsReceiptTimes` asks for it: on a live drive it is a sixth of a coded body, and the agent's Traccar and
/// OwnTracks sinks send no receipt time either. `maxBatchBytes` counts the lines as the spool holds them.
public final class BatchTransport: UplinkTransport {
    public let name = "http"
    private let url: String
    private let deviceID: String
    /// The codings the sink may send in, each with its level, and the one it sends in now.
    private let codings: [(coding: ContentCoding, level: Int)]
    private var current = 0
    private let maxBatchBytes: Int
    private let sendsReceiptTimes: Bool
    private let client: HTTPClient

    /// `codings`: at least one, the first tried first. `level` is one of each coding's ``ContentCoding/levels``
    /// (the configuration gives one only with one coding); nil takes each one's ``ContentCoding/defaultLevel``.
    /// `sendsReceiptTimes`: whether the lines keep their `recv`.
    public init(
        url: String,
        deviceID: String,
        codings: [ContentCoding],
        level: Int? = nil,
        maxBatchBytes: Int,
        sendsReceiptTimes: Bool = false,
        client: HTTPClient
    ) {
        precondition(!codings.isEmpty, "BatchTransport: no coding")
        answeredIn = codings[0]
        self.url = url
        self.deviceID = deviceID
        self.codings = codings.map { coding in
            let level = level ?? coding.defaultLevel
            precondition(coding.levels.contains(level), "\(coding.rawValue) takes levels \(coding.levels)")
            return (coding, level)
        }
        self.maxBatchBytes = maxBatchBytes
        self.sendsReceiptTimes = sendsReceiptTimes
        self.client = client
    }

    /// The coding the next request goes in.
    private var coding: ContentCoding { codings[current].coding }
    /// The coding of the request whose answer the last ``send(_:wallClock:)`` gave.
    public private(set) var answeredIn: ContentCoding

    public func skippable(_ events: ArraySlice<StoredEvent>) -> Int { 0 }

    public func send(_ events: ArraySlice<StoredEvent>, wallClock: Timestamp) -> UplinkAttempt {
        let batch = Self.batch(events, maxBytes: maxBatchBytes)
        let body = Self.body(batch, sendsReceiptTimes: sendsReceiptTimes)
        let starting = current
        var latest = post(batch, body, in: codings[current], wallClock: wallClock)
        var verdict = latest.attempt
        var wireBytes = latest.attempt.wireBytes
        answeredIn = coding
        var refusals: [String] = []
        while current + 1 < codings.count,
            let refusal = latest.codingFailure ?? Self.refusalOfCoding(latest.attempt.answer)
        {
            refusals.append("\(coding.rawValue) (\(refusal))")
            current += 1
            latest = post(batch, body, in: codings[current], wallClock: wallClock)
            wireBytes += latest.attempt.wireBytes
            if latest.attempt.answer == .confirmed {
                answeredIn = coding
                verdict = latest.attempt
                verdict.wireBytes = wireBytes
                verdict.notice =
                    "the \(name) sink's batch did not go in \(refusals.joined(separator: ", then ")) and went in "
                    + "\(coding.rawValue): the sink sends \(coding.rawValue) until the agent starts again "
                    + "(content_encoding = \"\(coding.rawValue)\" sends it from the start)"
                return verdict
            }
            // A later coding's 415, or a body it could not code, says nothing of the events: the earlier answer
            // stands (a backend that decodes zstd and not gzip still has a refused event quarantined).
            if latest.codingFailure == nil, !Self.refusesTheCodingAlone(latest.attempt.answer) {
                verdict = latest.attempt
                answeredIn = coding
            }
        }
        // Taken in no later coding either: the refusal was not of the coding.
        current = starting
        verdict.wireBytes = wireBytes
        return verdict
    }

    /// One request of `batch`, its lines `body`, coded as `choice` says; or why the body could not be coded (its
    /// library), and the attempt that failed for it.
    private func post(
        _ batch: ArraySlice<StoredEvent>,
        _ body: [UInt8],
        in choice: (coding: ContentCoding, level: Int),
        wallClock: Timestamp
    ) -> (attempt: UplinkAttempt, codingFailure: String?) {
        guard let first = batch.first, let last = batch.last else {
            preconditionFailure("BatchTransport.send: no events")
        }
        var headers = [
            "Content-Type: application/x-ndjson", "Waymark-Device: \(deviceID)", "Waymark-First-Seq: \(first.seq)",
            "Waymark-Last-Seq: \(last.seq)", "Idempotency-Key: \(deviceID):\(first.seq)-\(last.seq)",
        ]
        let coded: (body: [UInt8], header: String?)
        do {
            coded = try choice.coding.encode(body, level: choice.level)
        } catch {
            let failed = UplinkAttempt(
                sent: batch.count,
                answer: .temporary(reason: "\(error)", retryAfter: nil),
                wireBytes: 0
            )
            return (failed, "\(error)")
        }
        if let header = coded.header { headers.append(header) }
        let attempt = client.attempt(
            url: url,
            headers: headers,
            body: coded.body,
            sent: batch.count,
            wallClock: wallClock
        )
        return (attempt, nil)
    }

    /// What an answer says when it may be a refusal of the body's coding: a 415 (RFC 7694), or a refusal of the
    /// events (a server that does not decode the coding reads no events in the body) other than a 409 (a request
    /// with the same `Idempotency-Key` still in progress); nil for any other answer.
    static func refusalOfCoding(_ answer: DeliveryPolicy.Answer) -> String? {
        switch answer {
        case .refused(409, _): nil
        case .refused(let status, _): "HTTP \(status)"
        case .misconfigured(415, _): "HTTP 415"
        case .confirmed, .temporary, .misconfigured: nil
        }
    }

    /// Whether `answer` refuses the body's coding and says nothing of its events: a 415.
    private static func refusesTheCodingAlone(_ answer: DeliveryPolicy.Answer) -> Bool {
        if case .misconfigured(415, _) = answer { return true }
        return false
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
