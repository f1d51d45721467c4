/// One step through an XML document, as ``XMLTokenizer`` reads it.
///
/// Tokens refer to the tokenizer's ``XMLTokenizer/bytes`` by range, so reading allocates nothing per token.
/// Comments, processing instructions and the DOCTYPE are checked and skipped; they never appear.
public enum XMLToken: Hashable {
    /// `<name …>` or `<name …/>`. Its attributes are ``XMLTokenizer/attributes`` until the next token;
    /// a self-closing tag is followed by its ``endTag(_:)``.
    case startTag(XMLName)
    /// `</name>`, or the end of a self-closing tag.
    case endTag(XMLName)
    /// Character data between tags, references still encoded (``XMLTokenizer/appendDecoded(_:to:)``).
    /// Only inside the root element: whitespace around it is skipped.
    case text(Range<Int>)
    /// The content of a `<![CDATA[…]]>` section, literal.
    case cdata(Range<Int>)
}
