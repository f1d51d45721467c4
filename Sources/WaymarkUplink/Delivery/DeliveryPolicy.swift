import WaymarkCore

/// The delivery rules every network sink shares (Traccar, OwnTracks, HTTP batches): what to send next from the
/// sink's cursor, and what each answer of the server means for the cursor and for the next attempt.
///
/// - At least once and in `seq` order: the cursor moves over events only when the server confirmed them.
/// - A temporary failure (no connection, a timeout, 5xx, 408, 429) waits with exponential backoff
///   (``Backoff``: from `retryMin` doubling up to `retryMax`, each wait a random point of its upper half, so
///   that boards that failed together come back apart), or as long as the server's `Retry-After` says when
///   that is longer (at most ``longestRetryAfter``), and sends the same events again.
/// - A refusal (any other 4xx) of one event quarantines it: it stays in the spool, counted and listed with the
///   server's answer, and delivery goes on after it. A refused batch is halved until the refused event is
///   found: the events around it are delivered, not quarantined with it. A 4xx is never retried forever.
/// - A refusal of the sink's settings rather than the events (Traccar's 400 for an unknown device id, 401, 403,
///   404, 405, 410, 415, a redirect) quarantines nothing: the events wait, retried at the backoff's pace, while
///   the sink raises its alarm. So does a server that refuses ``quarantineLimit`` events in a row with none
///   confirmed between them: a server that refuses everything is misconfigured, and must not empty the sink
///   into quarantine.
///
/// Pure: the caller passes `now` and the random numbers, sends, and carries out the ``Effect`` of each answer.
public struct DeliveryPolicy: Sendable {
    public struct Settings: Hashable, Sendable {
        /// The first wait after a failure.
        public var retryMin: Duration
        /// The longest wait the backoff reaches.
        public var retryMax: Duration

        public init(retryMin: Duration = .seconds(1), retryMax: Duration = .seconds(300)) {
            self.retryMin = max(retryMin, .milliseconds(1))
            self.retryMax = max(self.retryMin, retryMax)
        }
    }

    /// What the server, or the way to it, said of one attempt.
    public enum Answer: Hashable, Sendable {
        /// A 2xx, or an MQTT PUBACK: the server has the events.
        case confirmed
        /// Worth another try: no connection, a timeout, 5xx, 408, 429; `retryAfter` as the server asked.
        case temporary(reason: String, retryAfter: Duration?)
        /// The server will not take these events as they are: a 4xx other than the temporary ones.
        case refused(status: Int, answer: String)
        /// The sink's settings, not the events, are wrong (Traccar's 400 for an unknown device id, 401, 403,
        /// 404, 405, 410, 415, a redirect): the events wait for the configuration to change.
        case misconfigured(status: Int, answer: String)
    }

    /// What an answer does to the sink's cursor.
    public enum Effect: Hashable, Sendable {
        /// The cursor moves over this many events: delivered.
        case delivered(Int)
        /// The next event is quarantined, with the server's status and answer; the cursor moves over it.
        case quarantine(status: Int, answer: String)
        /// The cursor stays: the same events go again, all or part of them, at ``nextAttempt``.
        case none
    }

    public let settings: Settings
    private var backoff: Backoff
    /// When the next attempt may go; nil when it may go now.
    public private(set) var nextAttempt: MonotonicInstant?
    /// Events after the cursor known to hold one the server refuses (a refused batch not yet split down to
    /// it); 0 when none is known.
    private var suspect = 0
    /// Events quarantined since the last confirmation.
    private var quarantinedInARow = 0

    /// A wait longer than this in a `Retry-After` is cut to it: a server's mistake must not park a sink for
    /// days (its `sink_stalled` alarm rises after `[health] max_unsent_age` anyway).
    public static let longestRetryAfter = Duration.seconds(3600)

    /// Events quarantined in a row, none confirmed between them, after which a refusal counts as a refusal of
    /// the sink's settings.
    public static let quarantineLimit = 3

    public init(settings: Settings = Settings()) {
        self.settings = settings
        backoff = Backoff(minimum: settings.retryMin, maximum: settings.retryMax, jitter: 0.5)
    }

    /// How many of the `available` events after the cursor the next attempt sends: all of them, or the first
    /// half of a refused batch.
    public func batchSize(available: Int) -> Int {
        guard suspect > 0 else { return available }
        return min(available, (suspect + 1) / 2)
    }

    /// Whether an attempt may go at `now`.
    public func mayAttempt(now: MonotonicInstant) -> Bool { nextAttempt.map { $0 <= now } ?? true }

    /// Takes the server's `answer` to an attempt of `sent` events (at least one) made at `now`; `generator`
    /// draws the waits' jitter.
    public mutating func record(
        _ answer: Answer,
        sent: Int,
        now: MonotonicInstant,
        using generator: inout some RandomNumberGenerator
    ) -> Effect {
        switch answer {
        case .confirmed:
            backoff.reset()
            nextAttempt = nil
            quarantinedInARow = 0
            // The refused event is in what is left of the suspect batch.
            suspect = max(0, suspect - sent)
            return .delivered(sent)
        case .refused(let status, let answer):
            if sent > 1 {
                // Halved until the refused event is found.
                backoff.reset()
                nextAttempt = nil
                suspect = sent
                return .none
            }
            guard quarantinedInARow < Self.quarantineLimit else {
                return record(.misconfigured(status: status, answer: answer), sent: sent, now: now, using: &generator)
            }
            backoff.reset()
            nextAttempt = nil
            suspect = 0
            quarantinedInARow += 1
            return .quarantine(status: status, answer: answer)
        case .temporary(_, let retryAfter):
            var wait = backoff.nextDelay(using: &generator)
            if let retryAfter { wait = max(wait, min(retryAfter, Self.longestRetryAfter)) }
            nextAttempt = now + wait
            return .none
        case .misconfigured:
            nextAttempt = now + backoff.nextDelay(using: &generator)
            return .none
        }
    }

    /// What an HTTP answer means by its status (RFC 9110): 2xx confirmed; 408, 429 and 5xx temporary, with the
    /// wait `Retry-After` asks for (seconds, or a date read against `wallClock`); redirects (not followed) and
    /// the statuses of a wrong address or account (401, 403, 404, 405, 410, 415) misconfigured; any other 4xx
    /// refused; anything else (1xx, past 599) temporary. A sink that knows more of its server maps its own
    /// statuses first (Traccar's 400).
    public static func answer(httpStatus status: Int, retryAfter: String?, body: String, wallClock: Timestamp) -> Answer
    {
        switch status {
        case 200..<300:
            return .confirmed
        case 408, 429, 500..<600:
            return .temporary(
                reason: "HTTP \(status)",
                retryAfter: retryAfter.flatMap { wait($0, wallClock: wallClock) }
            )
        case 300..<400, 401, 403, 404, 405, 410, 415:
            return .misconfigured(status: status, answer: body)
        case 400..<500:
            return .refused(status: status, answer: body)
        default:
            // Not an HTTP status a server ends an exchange with: nothing to conclude of the events.
            return .temporary(reason: "HTTP \(status)", retryAfter: nil)
        }
    }

    /// A `Retry-After` value as a wait from `wallClock`: delta-seconds or an HTTP date; nil for anything else.
    public static func wait(_ retryAfter: String, wallClock: Timestamp) -> Duration? {
        let text = retryAfter.trimmingASCIISpaces
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int64(text).map { .seconds($0) } ?? longestRetryAfter
        }
        return Timestamp(httpDate: text).map { max(.zero, $0.duration(since: wallClock)) }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    fileprivate var trimmingASCIISpaces: String {
        let bytes = Array(utf8)
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
