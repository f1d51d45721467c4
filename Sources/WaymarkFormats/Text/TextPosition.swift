/// Where something starts in a text: a 1-based line and a 1-based column.
///
/// Columns count bytes of UTF-8 from the start of the line, as compilers do: a character outside ASCII
/// before the position counts as 2 to 4 columns. A line ends at LF, CR LF or a lone CR.
public struct TextPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`, as it follows a file name in a message.
    public var description: String { "\(line):\(column)" }
}
