import Testing
import WaymarkCore
import WaymarkTestSupport
import WaymarkUplink

/// The delivery rules every network sink shares, driven with `now` and the random numbers passed in.
@Suite struct DeliveryPolicyTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    /// What a server that refuses every batch holding one of `refused` (indices of the events) does to events
    /// `0 ..< count` under the policy: the order in which events were delivered and quarantined, and the
    /// number of requests.
    static func deliver(count: Int, refused: Set<Int>) -> (delivered: [Int], quarantined: [Int], requests: Int) {
        var policy = DeliveryPolicy()
        var generator = SplitMix64(seed: 7)
        var now = start
        var cursor = 0
        var delivered: [Int] = []
        var quarantined: [Int] = []
        var requests = 0
        while cursor < count, requests < 10 * count {
            let size = policy.batchSize(available: count - cursor)
            let batch = cursor..<(cursor + size)
            requests += 1
            let answer: DeliveryPolicy.Answer =
                batch.contains(where: refused.contains) ? .refused(status: 400, answer: "bad event") : .confirmed
            switch policy.record(answer, sent: size, now: now, using: &generator) {
            case .delivered(let count):
                delivered += cursor..<(cursor + count)
                cursor += count
            case .quarantine(let status, let answer):
                #expect(status == 400 && answer == "bad event")
                quarantined.append(cursor)
                cursor += 1
            case .none:
                break
            }
            // A refusal waits only when the server refused too many events in a row.
            if let next = policy.nextAttempt, next > now { now = next }
        }
        return (delivered, quarantined, requests)
    }

    @Test(
        "a refused batch is halved until the refused events are found: the others are delivered, in order",
        arguments: [
            (8, Set<Int>()), (8, [0]), (8, [5]), (8, [7]), (8, [2, 3]), (8, [0, 7]), (8, [1, 2, 3]), (1, [0]),
            (13, [6]), (13, [12]), (100, [37, 38, 99]), (100, [10, 11, 12, 50, 51, 52]),
        ] as [(Int, Set<Int>)]
    )
    func bisection(count: Int, refused: Set<Int>) {
        let result = Self.deliver(count: count, refused: refused)
        #expect(result.delivered == (0..<count).filter { !refused.contains($0) })
        #expect(result.quarantined == refused.sorted())
        // Each refused event costs at most two requests per halving.
        var halvings = 0
        while (1 << halvings) < count { halvings += 1 }
        #expect(result.requests <= 1 + refused.count * (2 * halvings + 1))
    }

    @Test("a server that refuses everything quarantines a few events, then is taken as misconfigured: the rest wait")
    func refusesEverything() {
        let result = Self.deliver(count: 8, refused: Set(0..<8))
        #expect(result.delivered.isEmpty)
        #expect(result.quarantined == Array(0..<DeliveryPolicy.quarantineLimit))
    }

    @Test("temporary failures back off from retry_min doubling to retry_max, jittered within the upper half")
    func backoff() {
        var policy = DeliveryPolicy(settings: .init(retryMin: .seconds(1), retryMax: .seconds(300)))
        var generator = SplitMix64(seed: 3)
        var now = Self.start
        var waits: [Duration] = []
        for _ in 0..<12 {
            #expect(policy.batchSize(available: 5) == 5)
            let effect = policy.record(
                .temporary(reason: "timeout", retryAfter: nil),
                sent: 5,
                now: now,
                using: &generator
            )
            #expect(effect == .none)
            let next = try! #require(policy.nextAttempt)
            #expect(!policy.mayAttempt(now: next + .nanoseconds(-1)) && policy.mayAttempt(now: next))
            waits.append(next - now)
            now = next
        }
        let nominal: [Duration] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map { .seconds($0) }
        for (wait, ceiling) in zip(waits, nominal) { #expect(wait <= ceiling && wait >= ceiling / 2) }
        // A confirmation starts again from retry_min, and may go at once.
        #expect(policy.record(.confirmed, sent: 5, now: now, using: &generator) == .delivered(5))
        #expect(policy.nextAttempt == nil)
        _ = policy.record(.temporary(reason: "timeout", retryAfter: nil), sent: 5, now: now, using: &generator)
        #expect(try! #require(policy.nextAttempt) - now <= .seconds(1))
    }

    @Test(
        "Retry-After is honoured when longer than the backoff, up to an hour",
        arguments: [
            (nil, .seconds(0), .seconds(1)), (.seconds(120), .seconds(120), .seconds(120)),
            (.seconds(0), .seconds(0), .seconds(1)), (.seconds(86_400 * 2), .seconds(3600), .seconds(3600)),
        ] as [(Duration?, Duration, Duration)]
    )
    func retryAfter(asked: Duration?, least: Duration, most: Duration) {
        var policy = DeliveryPolicy()
        var generator = SplitMix64(seed: 5)
        _ = policy.record(
            .temporary(reason: "HTTP 503", retryAfter: asked),
            sent: 1,
            now: Self.start,
            using: &generator
        )
        let wait = try! #require(policy.nextAttempt) - Self.start
        #expect(wait >= least && wait <= most)
    }

    @Test("a refusal of the sink's settings quarantines nothing: the same events wait and go again")
    func misconfigured() {
        var policy = DeliveryPolicy()
        var generator = SplitMix64(seed: 9)
        let effect = policy.record(
            .misconfigured(status: 400, answer: "unknown device"),
            sent: 1,
            now: Self.start,
            using: &generator
        )
        #expect(effect == .none)
        #expect(!policy.mayAttempt(now: Self.start))
        #expect(policy.batchSize(available: 3) == 3)
    }

    @Test(
        "an HTTP status: 2xx confirmed, 408/429/5xx temporary with Retry-After, 401/403/3xx misconfigured, other 4xx refused",
        arguments: [
            (200, nil, DeliveryPolicy.Answer.confirmed), (204, nil, .confirmed),
            (301, nil, .misconfigured(status: 301, answer: "body")),
            (404, nil, .misconfigured(status: 404, answer: "body")),
            (415, nil, .misconfigured(status: 415, answer: "body")), (422, nil, .refused(status: 422, answer: "body")),
            (401, nil, .misconfigured(status: 401, answer: "body")),
            (403, nil, .misconfigured(status: 403, answer: "body")), (400, nil, .refused(status: 400, answer: "body")),
            (413, nil, .refused(status: 413, answer: "body")),
            (408, nil, .temporary(reason: "HTTP 408", retryAfter: nil)),
            (429, "7", .temporary(reason: "HTTP 429", retryAfter: .seconds(7))),
            (503, "Wed, 25 Nov 2026 06:02:00 GMT", .temporary(reason: "HTTP 503", retryAfter: .seconds(120))),
            (500, "soon", .temporary(reason: "HTTP 500", retryAfter: nil)),
            (100, nil, .temporary(reason: "HTTP 100", retryAfter: nil)),
            (999, nil, .temporary(reason: "HTTP 999", retryAfter: nil)),
        ] as [(Int, String?, DeliveryPolicy.Answer)]
    )
    func httpStatus(status: Int, retryAfter: String?, expected: DeliveryPolicy.Answer) {
        let wallClock = Timestamp(iso8601: "2026-11-25T06:00:00Z")!
        let answer = DeliveryPolicy.answer(
            httpStatus: status,
            retryAfter: retryAfter,
            body: "body",
            wallClock: wallClock
        )
        #expect(answer == expected)
    }

    @Test(
        "Retry-After: delta-seconds or an HTTP date, nothing else",
        arguments: [
            ("120", .seconds(120)), (" 5 ", .seconds(5)), ("0", .seconds(0)),
            ("99999999999999999999999", DeliveryPolicy.longestRetryAfter),
            ("Wed, 25 Nov 2026 06:00:30 GMT", .seconds(30)), ("Tue, 24 Nov 2026 06:00:00 GMT", .seconds(0)),
            ("-5", nil), ("1.5", nil), ("", nil), ("Wednesday, 25-Nov-26 06:00:30 GMT", nil),
            ("Wed, 25 Nov 2026 06:00:30 UTC", nil),
        ] as [(String, Duration?)]
    )
    func retryAfterValue(text: String, expected: Duration?) {
        let wallClock = Timestamp(iso8601: "2026-11-25T06:00:00Z")!
        #expect(DeliveryPolicy.wait(text, wallClock: wallClock) == expected)
    }
}
