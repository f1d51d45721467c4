/// Input that is not well-formed XML: what is wrong, and on which line.
public struct XMLSyntaxError: Error, Hashable {
    /// 1-based line of the offending markup (for something never closed: where it was opened).
    public var line: Int
    public var message: String
}
