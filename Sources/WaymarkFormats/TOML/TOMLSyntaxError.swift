/// Text that is not the TOML that ``TOMLDocument`` reads, with the line where reading stopped.
public struct TOMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name that messages start with.
    public var file: String
    /// The 1-based line of the problem.
    public var line: Int
    /// What is wrong, for a person: `expected "=" after the key "port"`.
    public var message: String

    /// `FILE:LINE: message`.
    public var description: String { "\(file):\(line): \(message)" }
}
