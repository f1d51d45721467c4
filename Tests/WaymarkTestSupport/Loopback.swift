import Foundation

/// TCP sockets on 127.0.0.1, as the test servers and clients use them.
public enum Loopback {
    /// Calls `body` with 127.0.0.1:`port` as a `sockaddr` and its length; the address stays writable for
    /// `getsockname`.
    private static func withAddress<T>(
        port: Int,
        _ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> T
    ) -> (result: T, port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
        return (result, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Connects `descriptor` to 127.0.0.1:`port`; true when connected.
    public static func connect(_ descriptor: Int32, port: Int) -> Bool {
        withAddress(port: port) { address, length in Glibc.connect(descriptor, address, length) == 0 }.result
    }

    /// Binds `descriptor` to 127.0.0.1:`port` (0: a port the kernel chooses) and, with `listening`, listens;
    /// returns the port bound, or nil (with `errno` set).
    public static func bind(_ descriptor: Int32, port: Int = 0, listening: Bool) -> Int? {
        let (bound, port) = withAddress(port: port) { address, length in
            Glibc.bind(descriptor, address, length) == 0 && (!listening || Glibc.listen(descriptor, 8) == 0)
                && getsockname(descriptor, address, &length) == 0
        }
        return bound ? port : nil
    }
}
