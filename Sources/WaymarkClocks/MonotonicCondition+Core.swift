import WaymarkCore
import WaymarkSystem

extension MonotonicCondition {
    /// ``MonotonicCondition/wait(untilNanoseconds:)`` with a deadline on the monotonic clock; true when it passed.
    public func wait(until deadline: MonotonicInstant?) -> Bool { wait(untilNanoseconds: deadline?.nanoseconds) }
}
