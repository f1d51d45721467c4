import Foundation

/// The service manager's side of `sd_notify(3)` for a test: an `AF_UNIX` datagram socket bound at a path, whose
/// datagrams a thread collects with the time each arrived. Give its ``path`` to the agent as `NOTIFY_SOCKET`.
public final class NotifyListener: @unchecked Sendable {
    public struct Message: Sendable {
        public let time: Date
        /// The datagram's `KEY=value` assignments, one per line.
        public let assignments: [String]
    }

    public let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var collected: [Message] = []
    private var thread: Thread?
    /// Signalled when the receiving thread has ended.
    private let ended = DispatchSemaphore(value: 0)
    /// Runs on the receiving thread as each datagram arrives, before it is collected.
    private let onReceive: @Sendable ([String]) -> Void

    public init(in directory: URL, onReceive: @escaping @Sendable ([String]) -> Void = { _ in }) throws {
        path = directory.appendingPathComponent("notify").path
        self.onReceive = onReceive
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw TestServerError("bind \(path): errno \(errno)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in receive() }
        self.thread = thread
        thread.start()
    }

    private func receive() {
        defer { ended.signal() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !Thread.current.isCancelled {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            let assignments = text.split(separator: "\n").map(String.init)
            onReceive(assignments)
            lock.withLock { collected.append(Message(time: Date(), assignments: assignments)) }
        }
    }

    /// Every datagram so far, in order.
    public var messages: [Message] { lock.withLock { collected } }

    /// When each assignment `key=value` (exactly) arrived.
    public func times(of assignment: String) -> [Date] {
        messages.filter { $0.assignments.contains(assignment) }.map(\.time)
    }

    /// The `STATUS=` texts, in order.
    public var statusLines: [String] {
        messages.flatMap { $0.assignments.filter { $0.hasPrefix("STATUS=") }.map { String($0.dropFirst(7)) } }
    }

    public func stop() {
        thread?.cancel()
        // The thread looks at its cancellation at least every 100 ms (the socket's receive timeout).
        _ = ended.wait(timeout: .now() + 5)
        close(descriptor)
        unlink(path)
    }
}
