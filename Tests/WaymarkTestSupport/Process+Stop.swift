import Foundation

extension Process {
    /// A process that runs `executable` with every signal unblocked: the test process's threads block most of them,
    /// and a child started by `Process` inherits that mask, so that SIGTERM would wait unseen and ``stop(graceful:patience:)``
    /// kill it after its patience (mosquitto would then never save, ot-recorder could die holding a message, and
    /// each stop would take 5 s).
    public static func unblocked(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                executable,
            ] + arguments
        return process
    }

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
