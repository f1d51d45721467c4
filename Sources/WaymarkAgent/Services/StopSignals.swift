import Glibc
import Synchronization
import UnixSignals

/// SIGTERM and SIGINT for the commands that run without a `ServiceGroup` (`replay`, `locate`): trapped, so
/// that a stop ends their work gracefully (the spool committed, the search answered) instead of killing
/// the process. A second signal kills it, as usual, should the graceful end hang (a disk that blocks).
final class StopSignals: Sendable {
    private let requested = Atomic<Bool>(false)
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    /// Traps the signals at once; `onStop` is called at the first, on a task of its own.
    init(onStop: @escaping @Sendable () -> Void = {}) async {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let task = Task { [weak self] in
            for await _ in signals {
                self?.requested.store(true, ordering: .releasing)
                onStop()
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                return
            }
        }
        watcher.withLock { $0 = task }
    }

    deinit { watcher.withLock { $0?.cancel() } }

    /// Whether a stop was asked for.
    var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Sleeps for `duration`, or less when a stop comes first: in slices of at most 100 ms.
    func sleep(for duration: Duration) async {
        var remaining = duration
        while remaining > .zero && !isRequested {
            let slice = min(remaining, .milliseconds(100))
            guard (try? await Task.sleep(for: slice)) != nil else { return }
            remaining -= slice
        }
    }
}
