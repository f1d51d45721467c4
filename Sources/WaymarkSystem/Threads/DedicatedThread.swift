import CLinux
import Glibc

/// A detached OS thread for blocking calls (`gps_waiting`, `gps_read`, SQLite's commits), never the
/// cooperative pool.
public enum DedicatedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread named `name` (at most 15 bytes are kept by Linux).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(
            Body {
                name.withCString { waymark_name_current_thread($0) }
                body()
            }
        ).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        // The thread starts (it inherits the mask it is created with) with the signals a process is sent
        // blocked, as libdispatch's own threads do (`_dispatch_sigmask`): SIGTERM, SIGINT and SIGHUP go to
        // swift-service-lifecycle's signal sources (libdispatch's signalfd) and interrupt no blocking call here.
        // Left open, as there: those a fault raises, SIGPIPE, and SIGPROF, with which Swift's crash handler stops
        // the other threads to show their backtraces. Until `GlobalExecutor`, every thread of the agent was
        // started from one of libdispatch's, and so had this mask.
        var blocked = sigset_t()
        sigfillset(&blocked)
        for open in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF] {
            sigdelset(&blocked, open)
        }
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            &attributes,
            { context in
                guard let context else { return nil }
                let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
                body.run()
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            preconditionFailure("\(SystemError(call: "start a thread", errno: result))")
        }
    }
}
