import Glibc
import WaymarkSystem

/// The TCP sockets on 127.0.0.1 that a raw log's replay uses: the feed gpsd reads, and the client that
/// watches gpsd. Every descriptor is close-on-exec, so gpsd inherits none.
enum LoopbackSocket {
    /// A non-blocking listener on a port the kernel chose, and that port.
    static func listen() throws(ReplayError) -> (descriptor: Int32, port: Int) {
        let descriptor = try make()
        guard let port = bind(descriptor), Glibc.listen(descriptor, 1) == 0 else {
            let reason = SystemError.reason(errno)
            close(descriptor)
            throw ReplayError("cannot listen on 127.0.0.1 for gpsd's feed: \(reason)", code: .gpsdFailed)
        }
        setNonBlocking(descriptor)
        return (descriptor, port)
    }

    /// A port of 127.0.0.1 that was free a moment ago.
    static func freePort() throws(ReplayError) -> Int {
        let descriptor = try make()
        defer { close(descriptor) }
        guard let port = bind(descriptor) else {
            throw ReplayError(
                "cannot find a free port on 127.0.0.1 for gpsd: \(SystemError.reason(errno))",
                code: .gpsdFailed
            )
        }
        return port
    }

    /// A blocking connection to `port`, or nil when nothing listens there (yet). `receiveBuffer` asks for a
    /// receive buffer of that size (the kernel caps it at `net.core.rmem_max`), set before the connection so
    /// that the window it advertises can grow to it.
    static func connect(port: Int, receiveBuffer: Int32? = nil) throws(ReplayError) -> Int32? {
        let descriptor = try make()
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The accepted connection of `listener`, non-blocking, or nil when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        setNonBlocking(descriptor)
        return descriptor
    }

    /// The receive buffer of `descriptor` in bytes, as the kernel accounts it (twice what was asked).
    static func receiveBuffer(of descriptor: Int32) -> Int {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0 else { return 0 }
        return Int(size)
    }

    static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    private static func make() throws(ReplayError) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw ReplayError("\(SystemError(call: "make a socket for gpsd"))", code: .gpsdFailed)
        }
        return descriptor
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the kernel chooses and returns it, or nil.
    private static func bind(_ descriptor: Int32) -> Int? {
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
