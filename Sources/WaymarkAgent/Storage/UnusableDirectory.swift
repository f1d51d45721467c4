import Glibc
import WaymarkSystem

/// A state or log directory the agent cannot create or write at start: a configuration error (exit status 2),
/// as a bad value in the file is, rather than a run that keeps nothing. A disk that fails later is another
/// matter: the spool keeps the events in memory and retries.
public struct UnusableDirectory: Error, CustomStringConvertible, Sendable {
    /// The setting that names the directory: `[agent] state_dir`.
    public var setting: String
    public var path: String
    /// What is wrong, from the system: `cannot create /var/lib/waymark: Permission denied`.
    public var reason: String

    public var description: String {
        "\(setting) = \"\(path)\": \(reason); give the agent's user (uid \(getuid())) a directory it may write "
            + "there, or set \(setting.split(separator: " ").last ?? "it") to one"
    }

    /// Creates the directories `configuration` writes in (`state_dir`; `log_dir` when the file sink is on) and
    /// checks that this process may write in them.
    public static func check(_ configuration: Configuration) throws(UnusableDirectory) {
        try check("[agent] state_dir", configuration.agent.stateDirectory)
        if configuration.fileSink.enabled { try check("[agent] log_dir", configuration.agent.logDirectory) }
    }

    private static func check(_ setting: String, _ path: String) throws(UnusableDirectory) {
        do {
            try Files.makeDirectory(path)
        } catch {
            throw UnusableDirectory(setting: setting, path: path, reason: error.description)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            let reason = SystemError(call: "write in it", errno: errno)
            throw UnusableDirectory(setting: setting, path: path, reason: reason.description)
        }
    }
}
