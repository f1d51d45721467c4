/// A TOML 1.0 document read into tables, with the line of every key, so that messages can point at it.
///
/// Reads the whole of TOML 1.0.0 (toml.io/en/v1.0.0) and is held to toml-test's cases for it: comments,
/// `[table]` and `[[array.of.tables]]` headers, bare, quoted and dotted keys, the four kinds of strings with
/// every escape, integers in decimal, hexadecimal, octal and binary, floats with `inf` and `nan`, booleans,
/// offset and local date-times, local dates and times (``TOMLDateTime``), arrays and inline tables. Every rule
/// about defining a key or a table twice is applied. Reading stops at the first error, which names the file,
/// the line and the column, and says what is allowed there.
public struct TOMLDocument: Sendable, Equatable {
    /// The top-level table; each `[header]` is a sub-table of it, each `[[header]]` an array of tables.
    public var root: TOMLTable

    /// Reads `text`; `fileName` starts every error message.
    public init(parsing text: String, fileName: String) throws(TOMLSyntaxError) {
        var parser = TOMLParser(bytes: Array(text.utf8), fileName: fileName)
        root = try parser.parseDocument()
    }

    /// Reads `bytes`, which must be UTF-8; `fileName` starts every error message.
    public init(parsing bytes: [UInt8], fileName: String) throws(TOMLSyntaxError) {
        var parser = TOMLParser(bytes: bytes, fileName: fileName)
        try parser.checkUTF8()
        root = try parser.parseDocument()
    }
}
