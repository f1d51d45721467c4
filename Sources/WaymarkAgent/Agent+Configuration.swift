#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Agent {
    /// Where the agent looks for its configuration when none is named.
    public static let defaultConfigurationPath = "/etc/waymark/waymark.toml"

    /// The configuration at `path`; without a path, the default file if it exists, else the defaults.
    public static func loadConfiguration(_ path: String?) throws(ConfigurationError) -> Configuration {
        if let path { return try Configuration.load(contentsOf: path) }
        guard hasDefaultConfiguration else { return Configuration() }
        return try Configuration.load(contentsOf: defaultConfigurationPath)
    }

    /// Whether ``defaultConfigurationPath`` exists.
    public static var hasDefaultConfiguration: Bool { access(defaultConfigurationPath, F_OK) == 0 }
}
