import Glibc
import WaymarkSystem

/// `[agent]`: who the board is and where the agent keeps its files.
public struct AgentSettings: Sendable, Equatable {
    /// The name of the board in every event and upload (`device_id`); by default the host name.
    public var deviceID: String
    /// Where the spool and the persisted state live (`state_dir`).
    public var stateDirectory: String
    /// Where the event logs, GPX tracks and trip summaries go (`log_dir`).
    public var logDirectory: String
    /// Where the running agent keeps its status file for `waymark status` (`runtime_dir`): a tmpfs, so that
    /// rewriting it wears no SD card.
    public var runtimeDirectory = "/run/waymark"

    public init(
        deviceID: String = AgentSettings.defaultDeviceID,
        stateDirectory: String = "/var/lib/waymark",
        logDirectory: String = "/var/log/waymark"
    ) {
        self.deviceID = deviceID
        self.stateDirectory = stateDirectory
        self.logDirectory = logDirectory
    }

    /// The default ``deviceID``: the host name, unless it is empty or `localhost`; else this installation's
    /// `/etc/machine-id` (unique per board, even when every board keeps the image's host name); else `waymark`.
    public static var defaultDeviceID: String {
        deviceID(hostName: hostName, machineID: machineID) ?? "waymark"
    }

    /// The first of the two that names one board and is a valid ``deviceID``.
    static func deviceID(hostName: String?, machineID: String?) -> String? {
        [hostName.flatMap { $0 == "localhost" ? nil : $0 }, machineID]
            .compactMap { $0 }
            .first { name in
                guard case .accepted = ValueRule<String>.identifier.check(.string(name)) else { return false }
                return true
            }
    }

    private static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static var machineID: String? {
        guard let bytes = try? Files.contents("/etc/machine-id") else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}

extension AgentSettings {
    /// Reads `[agent]`.
    mutating func read(from section: inout SectionReader) {
        section.read("device_id", .identifier, into: &deviceID)
        section.read("state_dir", .absolutePath, into: &stateDirectory)
        section.read("log_dir", .absolutePath, into: &logDirectory)
        section.read("runtime_dir", .absolutePath, into: &runtimeDirectory)
    }
}
