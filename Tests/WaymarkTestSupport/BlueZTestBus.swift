import Foundation

/// A D-Bus bus of the test's own (Debian's `dbus-daemon`) with a BlueZ stand-in on it: `python3-dbusmock`'s
/// `bluez5` template, driven through the mock's own D-Bus interface by `Tests/Fixtures/bluez/bluez-driver.py`.
/// The agent connects to ``address`` (as `[beacons] bus` or `DBUS_SYSTEM_BUS_ADDRESS`).
public final class BlueZTestBus: @unchecked Sendable {
    public let directory: URL
    /// The bus's D-Bus address (`unix:path=…`).
    public let address: String
    private var daemon: Process?
    private var mock: Process?
    private var driver: Process?
    private var commands: FileHandle?
    private var answers: FileHandle?
    private var buffered = Data()

    /// Starts the bus, the BlueZ stand-in and its driver.
    public init() throws {
        for (path, package) in [
            ("/usr/bin/dbus-daemon", "dbus"), ("/usr/lib/python3/dist-packages/dbusmock", "python3-dbusmock"),
        ] where !FileManager.default.fileExists(atPath: path) {
            throw TestServerError("\(path) is missing: install Debian's \(package)")
        }
        directory = try Fixtures.temporaryDirectory()
        let socket = directory.appendingPathComponent("bus.sock").path
        address = "unix:path=\(socket)"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
        let configPath = directory.appendingPathComponent("bus.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configPath)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try log("dbus-daemon.log")
        try daemon.run()
        self.daemon = daemon
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard daemon.isRunning, Date() < deadline else { throw TestServerError("dbus-daemon did not start") }
            usleep(10_000)
        }
        try startBlueZ()
        let driver = Process()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        driver.arguments = [
            Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/bluez/bluez-driver.py").path, address,
        ]
        let input = Pipe()
        let output = Pipe()
        driver.standardInput = input
        driver.standardOutput = output
        driver.standardError = try log("driver.log")
        try driver.run()
        self.driver = driver
        commands = input.fileHandleForWriting
        answers = output.fileHandleForReading
    }

    deinit {
        try? commands?.close()
        driver?.stop()
        mock?.stop()
        daemon?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the BlueZ stand-in (`org.bluez` on the bus, no adapters yet), and waits until it owns its name.
    public func startBlueZ() throws {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        mock.arguments = ["-m", "dbusmock", "--system", "--template", "bluez5"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        mock.environment = environment
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = try log("bluez-mock.log")
        try mock.run()
        self.mock = mock
        let deadline = Date().addingTimeInterval(15)
        while !owned("org.bluez") {
            guard mock.isRunning, Date() < deadline else {
                throw TestServerError("the BlueZ stand-in did not start: \(Self.read(directory, "bluez-mock.log"))")
            }
            usleep(50_000)
        }
    }

    /// Stops the BlueZ stand-in (bluetoothd gone): `org.bluez` leaves the bus, with its adapters and devices.
    public func stopBlueZ() {
        mock?.stop()
        mock = nil
    }

    /// Sends one command to the driver (see `bluez-driver.py`) and returns its answer's `value`.
    @discardableResult
    public func send(_ command: [String: Any]) throws -> Any? {
        guard let commands, let answers else { throw TestServerError("the BlueZ driver is not running") }
        commands.write(try JSONSerialization.data(withJSONObject: command) + Data("\n".utf8))
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffered[buffered.startIndex..<newline]
                buffered = Data(buffered[buffered.index(after: newline)...])
                guard let answer = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw TestServerError("the BlueZ driver answered \(String(decoding: line, as: UTF8.self))")
                }
                guard answer["ok"] as? Bool == true else {
                    throw TestServerError("BlueZ driver, \(command): \(answer["error"] ?? "?")")
                }
                return answer["value"]
            }
            let data = answers.availableData
            guard !data.isEmpty else {
                throw TestServerError("the BlueZ driver ended: \(Self.read(directory, "driver.log"))")
            }
            buffered += data
        }
    }

    /// Whether `name` has an owner on the bus.
    private func owned(_ name: String) -> Bool {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        check.arguments = [
            "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
        ]
        let output = Pipe()
        check.standardOutput = output
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        check.waitUntilExit()
        return String(decoding: data, as: UTF8.self).contains("boolean true")
    }

    private func log(_ name: String) throws -> FileHandle {
        let path = directory.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    private static func read(_ directory: URL, _ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// The manufacturer data of an iBeacon advertisement (after Apple's company id), as hexadecimal: type 0x02,
    /// length 0x15, the UUID, major and minor (big-endian), measured power.
    public static func iBeaconData(uuid: String, major: Int, minor: Int, measuredPower: Int = -59) -> String {
        let bytes =
            [0x02, 0x15]
            + stride(from: 0, to: 32, by: 2).map { index -> Int in
                let hex = uuid.replacingOccurrences(of: "-", with: "")
                let start = hex.index(hex.startIndex, offsetBy: index)
                return Int(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            } + [major >> 8, major & 0xFF, minor >> 8, minor & 0xFF, measuredPower & 0xFF]
        return bytes.map { String(format: "%02X", $0) }.joined()
    }
}
