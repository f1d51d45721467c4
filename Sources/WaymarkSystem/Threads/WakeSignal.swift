import CLinux
import Glibc

/// An eventfd that wakes a thread sleeping in `poll` on ``descriptor``: ``signal()`` from any thread, and the
/// woken thread reads it empty (``drain()``). A signal before the sleep is kept until then, so none is lost.
/// ``descriptor`` is -1 when the process has no descriptor left (``failure`` says so); signalling is then a no-op.
public final class WakeSignal: Sendable {
    public let descriptor: Int32
    /// Why there is no descriptor: `cannot make an eventfd: Too many open files`; nil when there is one.
    public let failure: SystemError?

    public init() {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        failure = descriptor < 0 ? SystemError(call: "make an eventfd") : nil
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func signal() {
        guard descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    public func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    }
}
