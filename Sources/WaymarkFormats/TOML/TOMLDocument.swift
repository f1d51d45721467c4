/// A TOML file read into tables, with the line of every key, so that configuration messages can point at it.
///
/// Reads the part of TOML 1.0 that a configuration file needs: `#` comments, `[table]` and `[dotted.table]`
/// headers, bare and quoted keys, basic strings with the escapes `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`,
/// literal strings, integers (decimal with sign and `_` separators, `0x`, `0o`, `0b`), floats (with exponent,
/// `inf`, `nan`), booleans, arrays (over several lines, trailing comma allowed) and inline tables.
///
/// Rejected with a message rather than read: dotted keys in `key = value` lines (`a.b = 1`), arrays of tables
/// (`[[x]]`), multi-line strings and dates. Like TOML itself, a key or table defined twice is an error.
/// Reading stops at the first error, which names the file and line.
public struct TOMLDocument: Sendable, Equatable {
    /// The top-level table; each `[header]` is a sub-table of it.
    public var root: TOMLTable

    /// Reads `text`; `fileName` starts every error message.
    public init(parsing text: String, fileName: String) throws(TOMLSyntaxError) {
        var parser = TOMLParser(text: text, fileName: fileName)
        root = try parser.parseDocument()
    }
}
