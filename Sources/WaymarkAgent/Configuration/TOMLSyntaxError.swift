/// Text that is not the TOML that ``TOMLDocument`` reads, with the line where reading stopped.
struct TOMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name that messages start with.
    var file: String
    /// The 1-based line of the problem.
    var line: Int
    /// What is wrong, for a person: `expected "=" after the key "port"`.
    var message: String

    /// `FILE:LINE: message`.
    var description: String { "\(file):\(line): \(message)" }
}
