import Glibc

extension Agent {
    /// Where the package installs the configuration.
    public static let systemConfigurationPath = "/etc/waymark/waymark.toml"

    /// Where the agent looks for its configuration when none is named: `WAYMARK_CONFIG` when it is set and not
    /// empty (a second agent beside the service, a test that must never read the board's files), else
    /// ``systemConfigurationPath``.
    public static let defaultConfigurationPath: String = {
        guard let named = getenv("WAYMARK_CONFIG"), named.pointee != 0 else { return systemConfigurationPath }
        return String(cString: named)
    }()

    /// ``defaultConfigurationPath`` for a person, as the commands' help says it.
    public static let defaultConfigurationDescription = "$WAYMARK_CONFIG, else \(systemConfigurationPath)"

    /// The configuration at `path`; without a path, the default file if it exists, else the defaults.
    public static func loadConfiguration(_ path: String?) throws(ConfigurationError) -> Configuration {
        if let path { return try Configuration.load(contentsOf: path) }
        guard hasDefaultConfiguration else { return Configuration() }
        return try Configuration.load(contentsOf: defaultConfigurationPath)
    }

    /// Whether ``defaultConfigurationPath`` exists.
    public static var hasDefaultConfiguration: Bool { access(defaultConfigurationPath, F_OK) == 0 }
}
