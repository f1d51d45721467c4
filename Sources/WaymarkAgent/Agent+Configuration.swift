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

    /// Checks the configuration file at `path` and every file it names that the agent reads at start, each
    /// read as the agent reads it (`waymark check-config`): the region file, the gazetteer and the address file
    /// of `[places]` (the latter whole, where the agent's start checks its bounds), the password and certificate
    /// files of the enabled network sinks.
    ///
    /// - Returns: notes for a person that are no problem (the optional gazetteer package not installed).
    /// - Throws: ``ConfigurationError`` with every problem of the file; once its keys are valid, every problem of
    ///   the files it names, each on the line of the key that names the file.
    public static func checkConfiguration(_ path: String) throws(ConfigurationError) -> [String] {
        let (configuration, document, fileName) = try Configuration.loadDocument(contentsOf: path)
        let (issues, notes) = NamedFileCheck(configuration: configuration, document: document, fileName: fileName).run()
        guard issues.isEmpty else { throw ConfigurationError(issues: issues) }
        return notes
    }

    /// The `config_digest` a board with the configuration at `path` publishes in its fleet status
    /// (docs/fleet.md, "The digests"), for `waymark check-config --digest`.
    public static func configurationDigest(_ path: String) throws(ConfigurationError) -> String {
        FleetDigests.configuration(try Configuration.loadDocument(contentsOf: path).0)
    }

    /// Whether ``defaultConfigurationPath`` exists.
    public static var hasDefaultConfiguration: Bool { access(defaultConfigurationPath, F_OK) == 0 }
}
