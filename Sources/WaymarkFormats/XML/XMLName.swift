/// An element or attribute name, as ranges of ``XMLTokenizer/bytes``.
///
/// Namespaces are not resolved: `gpxtpx:speed` is matched by its ``local`` part, `speed`, whatever URI the
/// `gpxtpx` prefix is bound to.
public struct XMLName: Hashable {
    /// The name as written, prefix included: `gpxtpx:speed`.
    public var qualified: Range<Int>
    /// The part after the last colon: `speed`; the whole name when it has no prefix.
    public var local: Range<Int>
}
