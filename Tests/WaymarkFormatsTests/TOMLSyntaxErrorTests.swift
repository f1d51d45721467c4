import Testing

@testable import WaymarkFormats

@Suite struct TOMLSyntaxErrorTests {
    @Test(arguments: [
        // Keys and tables defined twice
        ("port = 2947\nport = 2948", "test.toml:2: duplicate key port; it is already set at line 1"),
        ("[gpsd]\nport = 1\n\n[gpsd]", "test.toml:4: duplicate table [gpsd]; it is already opened at line 1"),
        ("[a.b]\n[a.b]", "test.toml:2: duplicate table [a.b]; it is already opened at line 1"),
        (
            "[gpsd]\nhost = \"x\"\n[gpsd.host]",
            "test.toml:3: cannot open [gpsd.host]: gpsd.host is already a value, set at line 2"
        ),
        ("a = { x = 1 }\n[a.y]", "test.toml:2: cannot open [a.y]: a is already an inline table, set at line 1"),
        ("[a.b]\n[a]\nb = 1", "test.toml:3: b is already a table, [a.b] at line 1"),
        ("a = { b = 1, b = 2 }", "test.toml:1: duplicate key b; it is already set at line 1"),
        // Lines
        ("port 2947", #"test.toml:1: expected "=" after the key port, found "2""#),
        ("\nport", #"test.toml:2: expected "=" after the key port, found the end of the file"#),
        ("port =", "test.toml:1: missing value after port ="),
        ("port = # comment", "test.toml:1: missing value after port ="),
        ("= 5", #"test.toml:1: missing key before "=""#),
        (
            "höst = 1",
            #"test.toml:1: invalid character "ö" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        (
            "[gpsd]\n+port = 1",
            #"test.toml:2: invalid character "+" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        ("a.b = 1", "test.toml:1: dotted keys are not supported; put b under a [a] header"),
        ("a = 1 b = 2", #"test.toml:1: expected the end of the line after the value, found "b""#),
        ("[gpsd] port = 1", #"test.toml:1: expected the end of the line after the table header, found "p""#),
        ("[gpsd", #"test.toml:1: expected "]" to close the table header, found the end of the file"#),
        (
            "[]",
            #"test.toml:1: invalid character "]" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        ("[[points]]", "test.toml:1: arrays of tables ([[...]]) are not supported"),
        ("a = 1\rb = 2", "test.toml:1: a carriage return must be followed by a line feed"),
        ("a = 1\n# bell \u{7}", "test.toml:2: control character U+0007 in a comment"),
        // Strings
        ("\n\nhost = \"unterminated", #"test.toml:3: unterminated string: the closing " is missing"#),
        ("host = \"split\nline\"", #"test.toml:1: unterminated string: the closing " is missing"#),
        ("host = 'unterminated", "test.toml:1: unterminated string: the closing ' is missing"),
        (
            #"a = "bad \q escape""#,
            #"test.toml:1: invalid escape \q in a string; the escapes are \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#
        ),
        (#"a = "\u12""#, #"test.toml:1: \u must be followed by 4 hexadecimal digits"#),
        (#"a = "\UD800""#, #"test.toml:1: \U must be followed by 8 hexadecimal digits"#),
        (#"a = "\uD800""#, #"test.toml:1: \uD800 is not a Unicode scalar value"#),
        ("a = \"nul \u{0}\"", #"test.toml:1: control character U+0000 in a string; write it as an escape such as \t"#),
        ("a = 'bell \u{7}'", "test.toml:1: control character U+0007 in a literal string"),
        (#"a = """multi""""#, #"test.toml:1: multi-line strings (""") are not supported"#),
        ("a = '''multi'''", "test.toml:1: multi-line strings (''') are not supported"),
        // Bare values and numbers
        ("host = localhost", #"test.toml:1: invalid value localhost; if it is text, put it in quotes: "localhost""#),
        ("reconnect_min = 5s", #"test.toml:1: invalid value 5s; if it is text, put it in quotes: "5s""#),
        ("a = True", "test.toml:1: invalid value True; booleans are written true or false"),
        ("a = 012", "test.toml:1: invalid number 012: leading zeros are not allowed"),
        ("a = 00.5", "test.toml:1: invalid number 00.5: leading zeros are not allowed"),
        ("a = 1__000", "test.toml:1: invalid number 1__000"),
        ("a = _1", "test.toml:1: invalid number _1"),
        ("a = 1_", "test.toml:1: invalid number 1_"),
        ("a = 1.", "test.toml:1: invalid number 1."),
        ("a = .5", "test.toml:1: invalid number .5"),
        ("a = 1e", "test.toml:1: invalid number 1e"),
        ("a = 0x", "test.toml:1: invalid number 0x"),
        ("a = 0xG1", "test.toml:1: invalid number 0xG1"),
        ("a = 0b102", "test.toml:1: invalid number 0b102"),
        ("a = １２", "test.toml:1: invalid number １２"),
        ("a = +0x10", "test.toml:1: invalid number +0x10: a 0x integer cannot have a sign"),
        ("a = 9223372036854775808", "test.toml:1: number 9223372036854775808 is out of range"),
        ("a = 0x1_0000_0000_0000_0000", "test.toml:1: number 0x1_0000_0000_0000_0000 is out of range"),
        ("a = 1e400", "test.toml:1: number 1e400 is out of range"),
        ("a = 1979-05-27", "test.toml:1: dates and times are not supported; write 1979-05-27 in quotes if it is text"),
        ("a = 07:32:00", "test.toml:1: dates and times are not supported; write 07:32:00 in quotes if it is text"),
        // Arrays and inline tables
        ("a = [1, 2\nb = 3", #"test.toml:2: expected "," or "]" in the array opened at line 1, found "b""#),
        ("a = [1 2]", #"test.toml:1: expected "," or "]" in the array, found "2""#),
        ("a = [1,,2]", #"test.toml:1: expected a value, found ",""#),
        ("a = [\n  1,\n  2,\n", #"test.toml:4: the array opened at line 1 is never closed with "]""#),
        ("a = { b = 1, }", "test.toml:1: a trailing comma is not allowed in an inline table"),
        ("a = { b = 1\n}", #"test.toml:1: an inline table must be closed with "}" on the line it starts"#),
        ("a = { b = 1 c = 2 }", #"test.toml:1: expected "," or "}" in the inline table, found "c""#),
        ("a = { b.c = 1 }", "test.toml:1: dotted keys are not supported; put c under a [b] header"),
        ("a = " + String(repeating: "[", count: 40), "test.toml:1: arrays and inline tables may nest at most 32 deep"),
        (
            "[" + Array(repeating: "a", count: 40).joined(separator: ".") + "]",
            "test.toml:1: a key may have at most 32 dotted parts"
        ),
    ])
    func reportsTheFileTheLineAndWhatIsWrong(text: String, expected: String) {
        let error = #expect(throws: TOMLSyntaxError.self) {
            try TOMLDocument(parsing: text, fileName: "test.toml")
        }
        #expect(error?.description == expected)
    }
}
