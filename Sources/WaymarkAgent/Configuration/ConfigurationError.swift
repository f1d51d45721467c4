/// Why a configuration file was rejected: every problem found in it, in the order of the file.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, at least one, ordered by line.
    public var issues: [ConfigurationIssue]

    public init(issues: [ConfigurationIssue]) {
        self.issues = issues
    }

    /// One line per issue.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
