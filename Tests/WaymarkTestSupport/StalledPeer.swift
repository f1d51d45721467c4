import Foundation

/// A TCP peer on 127.0.0.1 that sends fixed bytes to every client and then keeps the connection open,
/// saying nothing more: a gpsd stalled in the middle of a line.
public final class StalledPeer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var closed = false

    public init(sending bytes: [UInt8]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestServerError("socket: \(errno)") }
        self.listener = listener
        guard let port = Loopback.bind(listener, listening: true) else {
            throw TestServerError("bind/listen: \(errno)")
        }
        self.port = port
        let thread = Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                let keep = lock.withLock {
                    if !closed { clients.append(client) }
                    return !closed
                }
                if !keep { close(client) }
            }
        }
        thread.start()
    }

    /// Closes the listener and every client connection, once: a second call (the test's, then `deinit`'s) would
    /// close whatever descriptor took the listener's number since, another test's socket.
    public func stop() {
        let first = lock.withLock {
            defer { closed = true }
            for client in clients { close(client) }
            clients = []
            return !closed
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }
}
