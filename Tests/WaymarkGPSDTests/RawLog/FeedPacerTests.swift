import Testing
import WaymarkCore

@testable import WaymarkGPSD

/// The raw log goes to gpsd in steps, each only once gpsd has answered the last: nothing it says is lost.
@Suite("Pacing a raw log into gpsd")
struct FeedPacerTests {
    @Test(
        "a step is a thirty-second of the socket's buffer, 4 KB to 64 KB; a step may make half the buffer",
        arguments: [(8 << 20, 65_536), (425_984, 13_312), (65_536, 4_096), (0, 4_096)]
    )
    func stepSize(capacity: Int, step: Int) {
        let pacer = FeedPacer(total: 1 << 30, capacity: capacity)
        #expect(pacer.step == step && pacer.limit == step)
        #expect(pacer.limitOutput == capacity / 2)
    }

    /// One pass: `sent` bytes sent so far, `heard` bytes of output, whether gpsd sleeps, at `ms`; then the limit.
    typealias Pass = (sent: Int, heard: Int, asleep: Bool, ms: Int64, limit: Int)

    @Test("the next step goes once the last is sent whole and gpsd has been asleep and silent for 5 ms")
    func steps() {
        // Steps of 4 KB of a 10,000-byte feed.
        let passes: [Pass] = [
            (0, 0, true, 0, 4096),  // Nothing sent yet: the first step may go.
            (4000, 0, true, 1, 4096),  // Not sent whole.
            (4096, 900, false, 2, 4096),  // gpsd answers.
            (4096, 0, true, 3, 4096),  // Quiet from now on...
            (4096, 0, true, 7, 4096),  // ...4 ms only.
            (4096, 0, false, 9, 4096),  // Awake again (it had more to read): quiet starts over.
            (4096, 0, true, 10, 4096),
            (4096, 20, true, 16, 4096),  // Something heard: starts over.
            (4096, 0, true, 17, 4096),
            (4096, 0, true, 22, 8192),  // 5 ms asleep and silent: the next step.
            (8192, 0, true, 23, 8192),
            (8192, 0, true, 28, 10_000),  // The last step is the rest.
            (10_000, 0, true, 29, 10_000),
            (10_000, 0, true, 40, 10_000),  // Nothing more to send.
        ]
        var pacer = FeedPacer(total: 10_000, capacity: 64 << 10)
        for (index, pass) in passes.enumerated() {
            if pass.heard > 0 { pacer.heard(pass.heard) }
            pacer.passed(sent: pass.sent, asleep: pass.asleep, now: MonotonicInstant(nanoseconds: pass.ms * 1_000_000))
            #expect(pacer.limit == pass.limit, "pass \(index)")
        }
        #expect(!pacer.settling(sent: 10_000))
    }

    @Test("a step whose output is more than half the socket's buffer overflowed; the next step starts from 0")
    func overflow() {
        var pacer = FeedPacer(total: 100_000, capacity: 64 << 10)
        pacer.heard(30_000)
        #expect(!pacer.overflowed)
        pacer.heard(2_768)
        #expect(!pacer.overflowed)
        pacer.heard(1)
        #expect(pacer.overflowed)
        var quiet = FeedPacer(total: 100_000, capacity: 64 << 10)
        quiet.heard(30_000)
        quiet.passed(sent: 4096, asleep: true, now: MonotonicInstant(nanoseconds: 0))
        quiet.passed(sent: 4096, asleep: true, now: MonotonicInstant(nanoseconds: 5_000_000))
        #expect(quiet.limit == 8192 && quiet.stepOutput == 0)
    }
}
