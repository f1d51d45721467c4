import Glibc

/// The one way a system call that a signal may interrupt (`read`, `write`, `flock`, `waitpid`, …) is made:
/// again, as long as it fails with `EINTR`.
public enum SystemCall {
    /// Calls `body` until it returns something other than -1 with `errno` `EINTR`, and returns that. A failure
    /// leaves `errno` as the call set it, for ``SystemError``.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }
}
