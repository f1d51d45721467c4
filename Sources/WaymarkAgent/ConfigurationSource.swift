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

    public func load() throws(ConfigurationError) -> Configuration {
        var configuration = try Agent.loadConfiguration(path)
        if let gpsd {
            configuration.gpsd.host = gpsd.host
            if let port = gpsd.port { configuration.gpsd.port = port }
        }
        return configuration
    }
}
