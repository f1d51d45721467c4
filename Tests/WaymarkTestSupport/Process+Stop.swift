import Foundation

extension Process {
    /// Stops the process and reaps it: SIGKILL, or with `graceful` SIGTERM first and SIGKILL after `patience`.
    ///
    /// Polls `isRunning` before `waitUntilExit()`, which busy-waits on Linux while the child is still alive.
    public func stop(graceful: Bool = false, patience: Double = 5) {
        guard isRunning else {
            waitUntilExit()
            return
        }
        if graceful {
            terminate()
            let deadline = Date().addingTimeInterval(patience)
            while isRunning && Date() < deadline { usleep(10_000) }
        }
        if isRunning { kill(processIdentifier, SIGKILL) }
        while isRunning { usleep(5_000) }
        waitUntilExit()
    }
}
