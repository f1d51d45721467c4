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
