/// One problem in a configuration file, which its ``description`` tells in one line:
/// `waymark.toml:12: [gpsd] port = -5: must be an integer from 1 to 65535`.
public struct ConfigurationIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file name, or the path of a file that could not be read.
    public var file: String
    /// The 1-based line of the problem, if it has one.
    public var line: Int?
    /// The 1-based column of a syntax error, in bytes of UTF-8 from the start of its line.
    public var column: Int?
    /// The section, dotted for a sub-section (`gpsd`, `sinks.file`), if the problem is in one.
    public var section: String?
    /// The key, if the problem is with one.
    public var key: String?
    /// The key's value written as TOML (`-5`, `"2947"`), if the problem is with the value.
    public var value: String?
    /// What is wrong and what is allowed: `must be an integer from 1 to 65535`.
    public var message: String

    public init(
        file: String,
        line: Int? = nil,
        column: Int? = nil,
        section: String? = nil,
        key: String? = nil,
        value: String? = nil,
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.section = section
        self.key = key
        self.value = value
        self.message = message
    }

    /// `FILE:LINE: [SECTION] KEY = VALUE: MESSAGE` (`FILE:LINE:COLUMN: MESSAGE` for a syntax error), leaving out the parts the issue does not have; a value
    /// longer than 60 characters is shortened.
    public var description: String {
        var subject: [String] = []
        if let section {
            subject.append("[\(section)]")
        }
        if let key {
            subject.append(key)
        }
        if let value {
            subject.append("= " + (value.count > 60 ? value.prefix(57) + "..." : value))
        }
        let location = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        let what = subject.isEmpty ? "" : subject.joined(separator: " ") + ": "
        return "\(location): \(what)\(message)"
    }
}
