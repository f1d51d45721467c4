/// One `name="value"` of a start tag, as ranges of ``XMLTokenizer/bytes``.
public struct XMLAttribute: Hashable {
    public var name: XMLName
    /// Between the quotes, references still encoded (``XMLTokenizer/appendDecoded(_:to:)``).
    public var value: Range<Int>
}
