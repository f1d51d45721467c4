import Glibc
import Synchronization

/// The last of SIGHUP, SIGINT and SIGTERM that came while an ``InterruptTrap`` was set, 0 for none.
private let trappedSignal = Atomic<Int32>(0)

/// SIGHUP (the terminal closed), SIGINT and SIGTERM caught while gpsd reads a raw log, so that the replay stops
/// gpsd before it exits; the previous dispositions come back with ``restore()``. A signal that was ignored
/// stays ignored (a script's background job ignores SIGINT): only the others are trapped. A handler only
/// records the signal (and interrupts a `poll`); the reading loop looks at ``signal`` at least every 100 ms.
final class InterruptTrap {
    /// The signals trapped unless ignored.
    static let signals = [SIGHUP, SIGINT, SIGTERM]

    private var saved: [(Int32, sigaction)] = []

    init() {
        trappedSignal.store(0, ordering: .relaxed)
        for number in Self.signals {
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0, !Self.isIgnored(previous) else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { trappedSignal.store($0, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) == 0 { saved.append((number, previous)) }
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

    /// The name of a trapped signal: `SIGHUP`.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        // SIG_IGN is the handler 1; Swift imports it as a function pointer, so compare the bits.
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
    }
}
