import Glibc

/// Where the agent's configuration comes from: a file (or the default file), with the command line's
/// overrides on top. Read at start and again on every SIGHUP, so a reload never undoes `--gpsd`.
public struct ConfigurationSource: Sendable {
    /// The file; nil means the default file when it exists, else the defaults.
    public var path: String?
    /// `--gpsd HOST[:PORT]`.
    public var gpsd: GPSDEndpoint?

    public init(path: String? = nil, gpsd: GPSDEndpoint? = nil) {
        self.path = path
        self.gpsd = gpsd
    }

    /// The file as an operator would name it in a log line.
    public var fileDescription: String { path ?? Agent.defaultConfigurationPath }

    /// The configuration in effect: the file's, or, with `[fleet] enabled`, the one a fleet sent
    /// (``remoteConfiguration(over:)``); then `--gpsd`.
    public func load() throws(ConfigurationError) -> Configuration {
        var configuration = try Agent.loadConfiguration(path)
        if configuration.fleet.enabled, let remote = Self.remoteConfiguration(over: configuration) {
            configuration = remote
        }
        if let gpsd {
            configuration.gpsd.host = gpsd.host
            if let port = gpsd.port { configuration.gpsd.port = port }
        }
        return configuration
    }

    /// The configuration a fleet's `setConfiguration` wrote under `[agent] state_dir` (docs/fleet.md, "The remote
    /// configuration"), which takes the place of `local`'s, with `local`'s `device_id` and `state_dir`; nil when
    /// there is none, or when it does not load (checked before it was written, it then keeps no board from
    /// starting: the file's configuration holds).
    static func remoteConfiguration(over local: Configuration) -> Configuration? {
        let path = FleetCommands.configurationPath(stateDirectory: local.agent.stateDirectory)
        guard access(path, F_OK) == 0, var remote = try? Configuration.load(contentsOf: path) else { return nil }
        remote.agent.deviceID = local.agent.deviceID
        remote.agent.stateDirectory = local.agent.stateDirectory
        remote.keepFleetLink(of: local)
        return remote
    }
}
