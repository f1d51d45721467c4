import Testing

@testable import WaymarkFormats

/// What the reader made of a text: the tree ``JSONValue`` builds by walking a ``JSONReader``.
typealias JSONTree = JSONValue

extension JSONValue {
    /// The whole of `bytes` as one value.
    static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONReaderError) -> JSONTree {
        try JSONValue(parsing: bytes, limits: limits)
    }

    static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONReaderError) -> JSONTree {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The error reading `bytes` gives; nil if it reads.
    static func error(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) -> JSONReaderError? {
        do {
            _ = try parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ text: String, limits: JSONLimits = JSONLimits()) -> JSONReaderError? {
        error(Array(text.utf8), limits: limits)
    }
}

@Suite("JSONReader: RFC 8259, strictly, with positions")
struct JSONReaderTests {
    @Test("well-formed texts read as the values they hold")
    func wellFormed() throws {
        let cases: [(String, JSONTree)] = [
            ("null", .null),
            (" true ", .boolean(true)),
            ("\n\tfalse\r\n", .boolean(false)),
            ("0", .number(0)),
            ("-12.5e2", .number(-1250)),
            ("\"\"", .string("")),
            ("[]", .array([])),
            ("{}", .object([])),
            ("[1,[2,[3]],{}]", .array([.number(1), .array([.number(2), .array([.number(3)])]), .object([])])),
            (
                "{\"a\": [true, null], \"b\": {\"c\": \"d\"}}",
                .object([
                    (key: "a", value: .array([.boolean(true), .null])),
                    (key: "b", value: .object([(key: "c", value: .string("d"))])),
                ])
            ),
            ("\u{FEFF}[1]", .array([.number(1)])),
        ]
        for (text, expected) in cases {
            #expect(try JSONTree.parse(text) == expected, "\(text)")
        }
    }

    @Test(
        "malformed texts are refused at the offending byte",
        arguments: [
            ("", "1:1", "the text ends where a value is expected"),
            ("   ", "1:4", "the text ends where a value is expected"),
            ("[1,]", "1:4", "expected a value, found \"]\""),
            ("{\"a\": 1,}", "1:9", "expected a key in double quotes, found \"}\""),
            ("[1 2]", "1:4", "expected , or ] after an array element, found \"2\""),
            ("{\"a\" 1}", "1:6", "expected : after the key \"a\", found \"1\""),
            ("{\"a\": 1 \"b\": 2}", "1:9", "expected , or } after a member, found '\"'"),
            ("{'a': 1}", "1:2", "expected a key in double quotes, found \"'\""),
            ("{a: 1}", "1:2", "expected a key in double quotes, found \"a\""),
            ("[1] // note", "1:5", "unexpected \"/\" after the end of the JSON value"),
            ("1 2", "1:3", "unexpected \"2\" after the end of the JSON value"),
            ("01", "1:1", "a number must not start with 0 followed by more digits"),
            ("-01", "1:1", "a number must not start with 0 followed by more digits"),
            ("-", "1:2", "expected a digit after -"),
            ("1.", "1:3", "expected a digit after the decimal point, found the end of the text"),
            ("1.e5", "1:3", "expected a digit after the decimal point, found \"e\""),
            ("1e", "1:3", "expected a digit in the exponent, found the end of the text"),
            ("1e+", "1:4", "expected a digit in the exponent, found the end of the text"),
            (".5", "1:1", "expected a value, found \".\""),
            ("+1", "1:1", "expected a value, found \"+\""),
            ("NaN", "1:1", "expected a value, found \"N\""),
            ("Infinity", "1:1", "expected a value, found \"I\""),
            ("tru", "1:1", "expected true"),
            ("nul", "1:1", "expected null"),
            ("[true false]", "1:7", "expected , or ] after an array element, found \"f\""),
            ("\"abc", "1:1", "the string is not closed: the text ends before its closing quote"),
            ("\"a\nb\"", "1:3", "a line break in a string: escape it, or close the string that opens at 1:1"),
            (
                "\"a\tb\"", "1:3",
                "control character U+0009 in a string: escape it, or close the string that opens at 1:1"
            ),
            ("\"\\x\"", "1:2", "unknown escape \\x; JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
            ("\"\\u12\"", "1:6", "expected 4 hexadecimal digits after \\u, found '\"'"),
            ("\"\\ud83d\"", "1:2", "\\uD83D is half a surrogate pair: a \\uDC00-\\uDFFF must follow"),
            ("\"\\ud83d\\u0041\"", "1:2", "\\uD83D is followed by \\u0041, not by the low half of a surrogate pair"),
            ("\"\\ude00\"", "1:2", "\\uDE00 is the low half of a surrogate pair without its high half"),
            ("[1", "1:1", "the array is not closed: the text ends before its ]"),
            ("{\"a\": [1, 2]", "1:1", "the object is not closed: the text ends before its }"),
            ("[1]\n\n  ]", "3:3", "unexpected \"]\" after the end of the JSON value"),
            ("[\n1,\r\n2,\r3,\n\u{201C}x\u{201D}]", "5:1", "expected a value, found \u{201C} (U+201C)"),
        ]
    )
    func malformed(text: String, position: String, message: String) throws {
        let error = try #require(JSONTree.error(text), "\(text.debugDescription) was read")
        #expect(error.position.description == position, "\(text.debugDescription): \(error)")
        #expect(error.message.hasPrefix(message), "\(text.debugDescription): \(error)")
    }

    @Test("bytes that are not UTF-8, in a string or outside one, are refused")
    func invalidUTF8() throws {
        let cases: [([UInt8], String)] = [
            ([0x22, 0xC3, 0x22], "byte 0xC3 in a string is not UTF-8"),  // truncated 2-byte sequence
            ([0x22, 0xC0, 0xAF, 0x22], "byte 0xC0 in a string is not UTF-8"),  // overlong "/"
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], "byte 0xE0 in a string is not UTF-8"),  // overlong
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "byte 0xED in a string is not UTF-8"),  // encoded surrogate
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "byte 0xF4 in a string is not UTF-8"),  // beyond U+10FFFF
            ([0x22, 0x80, 0x22], "byte 0x80 in a string is not UTF-8"),  // stray continuation
            ([0x22, 0xFF, 0x22], "byte 0xFF in a string is not UTF-8"),
            ([0xFF], "expected a value, found byte 0xFF"),
            ([0xFE, 0xFF, 0x00, 0x31], "the text is UTF-16; convert it to UTF-8"),
            ([0xFF, 0xFE, 0x31, 0x00], "the text is UTF-16; convert it to UTF-8"),
        ]
        for (bytes, message) in cases {
            let error = try #require(JSONTree.error(bytes), "\(bytes) was read")
            #expect(error.message == message, "\(bytes)")
        }
    }

    @Test("escapes decode, a surrogate pair to one scalar; UTF-8 passes through")
    func strings() throws {
        let cases: [(String, String)] = [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u00C9\u20AC""#, "A\u{E9}\u{C9}\u{20AC}"),
            (#""\ud83d\ude00 and \uD834\uDD1E""#, "\u{1F600} and \u{1D11E}"),
            (#""\u0000""#, "\u{0}"),
            ("\"Stra\u{DF}e \u{1F69A} \u{65E5}\u{672C}\"", "Stra\u{DF}e \u{1F69A} \u{65E5}\u{672C}"),
            (#""plain, then \n escaped""#, "plain, then \n escaped"),
        ]
        for (text, expected) in cases {
            #expect(try JSONTree.parse(text) == .string(expected), "\(text)")
        }
    }

    @Test("every value has its line and column; LF, CR LF and a lone CR end lines; a byte order mark is not a column")
    func positions() throws {
        let text = "\u{FEFF}{\"a\": [1,\r\n  \"\u{E9}\", \"x\"],\r\"b\":\n\t{\"c\": null}}"
        var reader = try JSONReader(Array(text.utf8))
        var seen: [String] = []
        func record(_ reader: inout JSONReader) throws(JSONReaderError) {
            _ = try reader.peek()
            seen.append("\(reader.position)")
        }
        try record(&reader)
        try reader.beginObject()
        while let key = try reader.nextKey() {
            try record(&reader)
            if key == "a" {
                try reader.beginArray()
                while try reader.nextElement() != nil {
                    try record(&reader)
                    try reader.skipValue()
                }
            } else {
                try reader.beginObject()
                while try reader.nextKey() != nil { try record(&reader) }
            }
        }
        try reader.finish()
        // "x" is at byte column 9 on line 2: the é before it takes 2 bytes.
        #expect(seen == ["1:1", "1:7", "1:8", "2:3", "2:9", "4:2", "4:8"])
    }

    @Test("nesting beyond the depth limit is refused, however deep, without exhausting the stack")
    func depth() throws {
        let limits = JSONLimits(maximumDepth: 64)
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(JSONTree.error(deepest, limits: limits) == nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(JSONTree.error(tooDeep, limits: limits))
        #expect(error.description == "1:65: arrays and objects are nested more than 64 deep")
        let hostile = String(repeating: "{\"a\":[", count: 200_000)
        #expect(JSONTree.error(hostile)?.message == "arrays and objects are nested more than 64 deep")
    }

    @Test("a text beyond the size limit, and a number beyond its length limit, are refused")
    func sizes() throws {
        let small = JSONLimits(maximumBytes: 10)
        #expect(JSONTree.error("[1,2,3,4]", limits: small) == nil)
        #expect(
            JSONTree.error("[1,2,3,4,5]", limits: small)?.description
                == "1:1: the text is 11 bytes long; at most 10 are read"
        )
        let longest = "0." + String(repeating: "1", count: JSONReader.maximumNumberLength - 2)
        #expect(try JSONTree.parse(longest) == .number(Double(longest)!))
        #expect(
            JSONTree.error("[" + longest + "1]")?.description == "1:2: a number of 513 characters; at most 512 are read"
        )
    }

    @Test("values the caller does not read are skipped, and checked all the same")
    func skipping() throws {
        let text = #"{"skip": {"deep": [1, {"x": "\u00e9"}]}, "keep": 5, "also": [true]}"#
        var reader = try JSONReader(Array(text.utf8))
        var kept: Double?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "keep" { kept = try reader.readNumber() }
        }
        try reader.finish()
        #expect(kept == 5)

        let broken = #"{"skip": {"deep": [1, {"x": "\x"}]}, "keep": 5}"#
        var brokenReader = try JSONReader(Array(broken.utf8))
        try brokenReader.beginObject()
        #expect(
            throws: JSONReaderError(
                position: .init(line: 1, column: 30),
                message: "unknown escape \\x; JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            )
        ) {
            while try brokenReader.nextKey() != nil {}
        }
    }

    @Test("a key given twice is announced twice, in order: what a repeat means is the caller's to say")
    func duplicateKeysAreAnnounced() throws {
        var reader = try JSONReader(Array(#"{"a": 1, "b": {"a": 2}, "a": 3}"#.utf8))
        let tree = try JSONTree.read(&reader)
        let inner = JSONTree.object([(key: "a", value: .number(2))])
        #expect(
            tree
                == .object([
                    (key: "a", value: .number(1)), (key: "b", value: inner),
                    (key: "a", value: .number(3)),
                ])
        )
    }
}
