import Testing

@testable import WaymarkFormats

@Suite("The XML tokenizer")
struct XMLTokenizerTests {
    /// Every token of `text`, written as `<name a=v>`, `</name>`, `"text"` and `[cdata]`, with references decoded.
    private func tokens(_ text: String) throws -> [String] {
        var tokenizer = try XMLTokenizer(Array(text.utf8))
        var result: [String] = []
        while let token = try tokenizer.next() {
            switch token {
            case .startTag(let name):
                let attributes = tokenizer.attributes.map { attribute in
                    var value: [UInt8] = []
                    tokenizer.appendDecoded(attribute.value, to: &value)
                    return " \(tokenizer.string(attribute.name))=\(String(decoding: value, as: UTF8.self))"
                }
                result.append("<\(tokenizer.string(name))\(attributes.joined())>")
            case .endTag(let name):
                result.append("</\(tokenizer.string(name))>")
            case .text(let range):
                var text: [UInt8] = []
                tokenizer.appendDecoded(range, to: &text)
                result.append("\"\(String(decoding: text, as: UTF8.self))\"")
            case .cdata(let range):
                result.append("[\(String(decoding: tokenizer.bytes[range], as: UTF8.self))]")
            }
        }
        return result
    }

    @Test("elements, attributes, text and CDATA in order; comments and instructions skipped")
    func tokenSequence() throws {
        let text = """
            <?xml version="1.0"?><!-- c --><a x='1' y = "&lt;2&gt;"><b/>t&amp;u<![CDATA[<&>]]><?pi x?></a>
            """

        #expect(
            try tokens(text) == [
                "<a x=1 y=<2>>", "<b>", "</b>", "\"t&u\"", "[<&>]", "</a>",
            ]
        )
    }

    @Test("a self-closing tag keeps its attributes until its end tag")
    func selfClosing() throws {
        var tokenizer = try XMLTokenizer(Array(#"<a><b k="v"/></a>"#.utf8))

        _ = try tokenizer.next()
        #expect(try tokenizer.next() == .startTag(XMLName(qualified: 4..<5, local: 4..<5)))
        #expect(try tokenizer.next() == .endTag(XMLName(qualified: 4..<5, local: 4..<5)))
        #expect(tokenizer.attributes.map(\.value) == [9..<10])
    }

    @Test("a prefixed name's local part follows the last colon")
    func localName() throws {
        var tokenizer = try XMLTokenizer(Array("<gpxtpx:speed/>".utf8))

        #expect(try tokenizer.next() == .startTag(XMLName(qualified: 1..<13, local: 8..<13)))
    }

    @Test(
        "references decode to UTF-8",
        arguments: [
            ("&lt;&gt;&amp;&apos;&quot;", "<>&'\""),
            ("&#39;&#x27;&#X;", nil),
            ("&#39;&#x27;&#0039;", "'''"),
            ("caf&#xE9; &#x1F600;", "café 😀"),
            ("&amp;amp;", "&amp;"),
            ("&#x110000;", nil),
            ("&#65", nil),
        ] as [(String, String?)]
    )
    func references(encoded: String, decoded: String?) throws {
        let result = try? tokens("<a>\(encoded)</a>")

        #expect(result == decoded.map { ["<a>", "\"\($0)\"", "</a>"] })
    }
}
