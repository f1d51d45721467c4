import Glibc
import Synchronization

/// The last of SIGINT and SIGTERM that came while an ``InterruptTrap`` was set, 0 for none.
private let trappedSignal = Atomic<Int32>(0)

/// SIGINT and SIGTERM caught while gpsd reads a raw log, so that the replay stops gpsd before it exits; the
/// previous dispositions come back with ``restore()``. A handler only records the signal (and interrupts a
/// `poll`); the reading loop looks at ``signal`` at least every 100 ms.
final class InterruptTrap {
    private var saved: [(Int32, sigaction)] = []

    init() {
        trappedSignal.store(0, ordering: .relaxed)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { trappedSignal.store($0, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            if sigaction(number, &action, &previous) == 0 { saved.append((number, previous)) }
        }
    }

    deinit { restore() }

    /// The signal that came, if one did.
    var signal: Int32? {
        let number = trappedSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Puts the dispositions back as they were.
    func restore() {
        for (number, previous) in saved {
            var previous = previous
            sigaction(number, &previous, nil)
        }
        saved = []
    }
}
