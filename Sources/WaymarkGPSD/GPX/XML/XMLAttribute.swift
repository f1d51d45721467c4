/// One `name="value"` of a start tag, as ranges of ``XMLTokenizer/bytes``.
struct XMLAttribute: Hashable {
    var name: XMLName
    /// Between the quotes, references still encoded (``XMLTokenizer/appendDecoded(_:to:)``).
    var value: Range<Int>
}
