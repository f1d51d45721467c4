import WaymarkCore
import WaymarkSystem

extension GlobalExecutor {
    /// ``GlobalExecutor/sleep(untilNanoseconds:)`` for `duration` from now on the monotonic clock, the deadline
    /// held at the clock's ends rather than wrapped past them.
    public func sleep(for duration: Duration) async throws {
        try await sleep(untilNanoseconds: (SystemClocks.monotonic() + duration).nanoseconds)
    }
}
