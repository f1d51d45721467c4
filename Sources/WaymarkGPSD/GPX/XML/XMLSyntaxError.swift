/// Input that is not well-formed XML: what is wrong, and on which line.
struct XMLSyntaxError: Error, Hashable {
    /// 1-based line of the offending markup (for something never closed: where it was opened).
    var line: Int
    var message: String
}
