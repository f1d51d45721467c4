/// Text that is not TOML 1.0, with the line and column where reading stopped.
public struct TOMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name that messages start with.
    public var file: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, counted in bytes of UTF-8 from the start of the line.
    public var column: Int
    /// What is wrong, for a person: `expected "=" after the key "port"`.
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
