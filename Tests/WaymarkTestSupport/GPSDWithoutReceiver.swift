import Foundation

/// A real gpsd that runs without any receiver: it answers a watch with `DEVICES {"devices":[]}`, as on a
/// board whose receiver is unplugged.
public final class GPSDWithoutReceiver: @unchecked Sendable {
    public let port: Int
    private let directory: URL
    private let gpsd: Process

    /// Starts gpsd on a free port and waits until it listens.
    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd") else {
            throw TestServerError("/usr/sbin/gpsd is missing: install Debian's gpsd (scripts/test.sh does)")
        }
        directory = try Fixtures.temporaryDirectory()
        port = try GPSDTestServer.freePort()
        gpsd = Process()
        gpsd.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        gpsd.arguments = ["-N", "-S", "\(port)", "-F", directory.appendingPathComponent("ctl.sock").path]
        gpsd.standardOutput = FileHandle.nullDevice
        gpsd.standardError = FileHandle.nullDevice
        try gpsd.run()
        let deadline = Date().addingTimeInterval(10)
        while !GPSDTestServer.canConnect(port: port) {
            guard gpsd.isRunning else { throw TestServerError("gpsd exited at start (port \(port))") }
            guard Date() < deadline else {
                gpsd.stop()
                throw TestServerError("gpsd did not listen on port \(port) within 10 s")
            }
            usleep(20_000)
        }
    }

    deinit {
        gpsd.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
