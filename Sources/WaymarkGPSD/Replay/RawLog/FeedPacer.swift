import WaymarkCore

/// How much of a raw log may go to the private gpsd, so that nothing gpsd says of it is lost.
///
/// gpsd writes to its clients without waiting: when a client's socket is full it drops the line, or the
/// client. Its output is 5 to 6 times the log it reads (the Regensburg drive: 430 KB, 2 MB of capture), so a
/// log sent as fast as gpsd takes it outruns any reader. The log goes in steps instead: the next step only
/// once gpsd has answered the last one, that is once its output has been read to the end and gpsd has been
/// asleep and silent for ``settle``. What one step makes must fit in waymark's socket (``limitOutput``); a
/// step that made more may have lost lines, and ``overflowed`` says so.
///
/// Pure: the session tells it what it sent and heard, and `now`.
struct FeedPacer {
    /// The bytes of the whole feed.
    let total: Int
    /// The bytes of one step.
    let step: Int
    /// The most output one step may make: what waymark's socket surely holds.
    let limitOutput: Int
    /// How long gpsd must be asleep and silent before the next step.
    let settle: Duration
    /// The end of the bytes that may be sent now: the end of the current step.
    private(set) var limit: Int
    /// The output heard since the current step began.
    private(set) var stepOutput = 0
    private var quietSince: MonotonicInstant?

    /// A pacer for `total` bytes in steps sized for a socket that holds `capacity` bytes of output: a
    /// thirty-second of it, from 4 KB to 64 KB (gpsd makes up to 6 bytes of each byte of a log).
    init(total: Int, capacity: Int, settle: Duration = .milliseconds(5)) {
        self.total = total
        step = min(max(capacity / 32, 4096), 1 << 16)
        limitOutput = capacity / 2
        self.settle = settle
        limit = min(total, step)
    }

    /// Whether the whole current step is sent and the pacer waits for gpsd to fall quiet.
    func settling(sent: Int) -> Bool { sent == limit && limit < total }

    /// Whether the output of the current step is more than waymark's socket surely holds.
    var overflowed: Bool { stepOutput > limitOutput }

    /// gpsd sent `count` bytes (more than 0).
    mutating func heard(_ count: Int) {
        stepOutput += count
        quietSince = nil
    }

    /// One pass of the loop is over: `sent` bytes of the feed are sent, and gpsd is `asleep` (waiting for
    /// input) or not. Opens the next step once gpsd has been asleep and silent for ``settle`` since the
    /// current one was sent whole.
    mutating func passed(sent: Int, asleep: Bool, now: MonotonicInstant) {
        guard settling(sent: sent), asleep else {
            quietSince = nil
            return
        }
        guard let since = quietSince else {
            quietSince = now
            return
        }
        if now - since >= settle {
            limit = min(total, limit + step)
            stepOutput = 0
            quietSince = nil
        }
    }
}
