import Testing

@testable import WaymarkFormats

@Suite struct TOMLSyntaxErrorTests {
    static let cases: [(text: String, expected: String)] = [
        // Keys and tables defined twice
        ("port = 2947\nport = 2948", "test.toml:2:1: duplicate key port; it is already set at line 1"),
        ("[gpsd]\nport = 1\n\n[gpsd]", "test.toml:4:1: duplicate table [gpsd]; it is already opened at line 1"),
        ("[a.b]\n[a.b]", "test.toml:2:1: duplicate table [a.b]; it is already opened at line 1"),
        (
            "[gpsd]\nhost = \"x\"\n[gpsd.host]",
            "test.toml:3:1: cannot open [gpsd.host]: gpsd.host is already a value, set at line 2"
        ),
        ("a = { x = 1 }\n[a.y]", "test.toml:2:1: cannot open [a.y]: a is already an inline table, set at line 1"),
        ("[a.b]\n[a]\nb = 1", "test.toml:3:1: b is already a table, [a.b] at line 1"),
        ("a = { b = 1, b = 2 }", "test.toml:1:14: duplicate key b; it is already set at line 1"),
        // Dotted keys and arrays of tables
        ("a.b = 1\na.b = 2", "test.toml:2:1: duplicate key a.b; it is already set at line 1"),
        ("a = 1\na.b = 2", "test.toml:2:1: cannot set a.b: a is already a value, set at line 1"),
        (
            "a.b = 1\n[a]",
            "test.toml:2:1: cannot open [a]: dotted keys already defined this table at line 1; add its keys there, "
                + "or only sub-tables with headers"
        ),
        (
            "[a.b.c]\n[a]\nb.c.t = 1",
            "test.toml:3:1: cannot set b.c.t with a dotted key: [a.b] is a table of its own, opened at line 1; "
                + "set c.t under its header"
        ),
        (
            "[[a]]\nb = 1\n[a.b.c]",
            "test.toml:3:1: cannot open [a.b.c]: a.b is already a value, set at line 2"
        ),
        ("[[a]]\n[a]", "test.toml:2:1: cannot open [a]: it is already an array of tables, [[a]] at line 1"),
        (
            "[a]\n[[a]]",
            "test.toml:2:1: cannot open [[a]]: it is already a table, defined at line 1; an array of tables is only "
                + "ever opened with [[...]]"
        ),
        ("a = [1]\n[[a]]", "test.toml:2:1: cannot open [[a]]: a is already an array, set at line 1"),
        (
            "[[a]]\n[b]\na.x = 1\n[[a]\n",
            #"test.toml:4:4: expected "]]" to close the array of tables, found "]""#
        ),
        (
            "a = { b = { c = 1 }, b.d = 2 }",
            "test.toml:1:22: cannot set b.d: b is already an inline table, set at line 1"
        ),
        ("a = { b.c = 1, b.c = 2 }", "test.toml:1:16: duplicate key b.c; it is already set at line 1"),
        ("a = { b = 1 }\na.c = 2", "test.toml:2:1: cannot set a.c: a is already an inline table, set at line 1"),
        (#""""a""" = 1"#, #"test.toml:1:1: a key cannot be a multi-line string; write it in "..." or '...'"#),
        // Lines
        ("port 2947", #"test.toml:1:6: expected "=" after the key port, found "2""#),
        ("\nport", #"test.toml:2:5: expected "=" after the key port, found the end of the file"#),
        ("port =", "test.toml:1:7: missing value after port ="),
        ("port = # comment", "test.toml:1:8: missing value after port ="),
        ("= 5", #"test.toml:1:1: missing key before "=""#),
        (
            "höst = 1",
            #"test.toml:1:2: invalid character "ö" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        (
            "[gpsd]\n+port = 1",
            #"test.toml:2:1: invalid character "+" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        ("a = 1 b = 2", #"test.toml:1:7: expected the end of the line after the value, found "b""#),
        ("[gpsd] port = 1", #"test.toml:1:8: expected the end of the line after the table header, found "p""#),
        ("[gpsd", #"test.toml:1:6: expected "]" to close the table header, found the end of the file"#),
        (
            "[]",
            #"test.toml:1:2: invalid character "]" in a key; bare keys may use letters, digits, "_" and "-", other keys must be in quotes"#
        ),
        ("a = 1\rb = 2", "test.toml:1:6: a carriage return must be followed by a line feed"),
        ("a = 1\n# bell \u{7}", "test.toml:2:8: control character U+0007 in a comment"),
        ("a = 1 # carriage \r return", "test.toml:1:18: control character U+000D (a carriage return) in a comment"),
        // Strings
        ("\n\nhost = \"unterminated", #"test.toml:3:21: unterminated string: the closing " is missing"#),
        ("host = \"split\nline\"", #"test.toml:1:14: unterminated string: the closing " is missing"#),
        ("host = 'unterminated", "test.toml:1:21: unterminated string: the closing ' is missing"),
        (
            #"a = "bad \q escape""#,
            #"test.toml:1:11: invalid escape \q in a string; the escapes are \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#
        ),
        (
            #"a = "\x41""#,
            #"test.toml:1:7: invalid escape \x in a string; the escapes are \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#
        ),
        (
            "a = \"\\\u{7}\"",
            #"test.toml:1:7: invalid escape \ followed by U+0007 in a string; the escapes are \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX"#
        ),
        (
            "a = \"line-ending \\\r\nbackslash\"",
            #"test.toml:1:19: a backslash at the end of a line continues only a multi-line string ("""..."""); write \\ for a backslash"#
        ),
        (#"a = "\u12""#, #"test.toml:1:10: \u must be followed by 4 hexadecimal digits"#),
        (#"a = "\UD800""#, #"test.toml:1:12: \U must be followed by 8 hexadecimal digits"#),
        (#"a = "\uD800""#, #"test.toml:1:12: \uD800 is not a Unicode scalar value"#),
        (
            "a = \"nul \u{0}\"",
            #"test.toml:1:10: control character U+0000 in a string; write it as an escape such as \t"#
        ),
        ("a = 'bell \u{7}'", "test.toml:1:11: control character U+0007 in a literal string"),
        ("a = \"\"\"\nno end", #"test.toml:2:7: unterminated multi-line string: the closing """ of line 1 is missing"#),
        ("a = '''\nno end", "test.toml:2:7: unterminated multi-line string: the closing ''' of line 1 is missing"),
        (
            "a = \"\"\"x\"\"\"\"\"\"",
            #"test.toml:1:9: too many quotes: a multi-line string ends with """ and may hold at most two more"#
        ),
        (
            "a = \"\"\"bell \u{7}\"\"\"",
            #"test.toml:1:13: control character U+0007 in a string; write it as an escape such as \t"#
        ),
        ("a = '''lone \r cr'''", "test.toml:1:13: a carriage return must be followed by a line feed"),
        // Bare values and numbers
        ("host = localhost", #"test.toml:1:8: invalid value localhost; if it is text, put it in quotes: "localhost""#),
        ("reconnect_min = 5s", #"test.toml:1:17: invalid value 5s; if it is text, put it in quotes: "5s""#),
        ("a = True", "test.toml:1:5: invalid value True; booleans are written true or false"),
        ("a = 012", "test.toml:1:5: invalid number 012: leading zeros are not allowed"),
        ("a = 00.5", "test.toml:1:5: invalid number 00.5: leading zeros are not allowed"),
        ("a = 1__000", "test.toml:1:5: invalid number 1__000"),
        ("a = _1", "test.toml:1:5: invalid number _1"),
        ("a = 1_", "test.toml:1:5: invalid number 1_"),
        ("a = 1.", "test.toml:1:5: invalid number 1."),
        ("a = .5", "test.toml:1:5: invalid number .5"),
        ("a = 1e", "test.toml:1:5: invalid number 1e"),
        ("a = 0x", "test.toml:1:5: invalid number 0x"),
        ("a = 0xG1", "test.toml:1:5: invalid number 0xG1"),
        ("a = 0b102", "test.toml:1:5: invalid number 0b102"),
        ("a = １２", "test.toml:1:5: invalid number １２"),
        ("a = +0x10", "test.toml:1:5: invalid number +0x10: a 0x integer cannot have a sign"),
        ("a = 9223372036854775808", "test.toml:1:5: number 9223372036854775808 is out of range"),
        ("a = 0x1_0000_0000_0000_0000", "test.toml:1:5: number 0x1_0000_0000_0000_0000 is out of range"),
        ("a = 1e400", "test.toml:1:5: number 1e400 is out of range"),
        // Dates and times
        (
            "a = 1979-05-27T07:32",
            "test.toml:1:5: invalid date or time 1979-05-27T07:32; TOML writes them as 1979-05-27T07:32:00Z, "
                + "1979-05-27T07:32:00-07:00, 1979-05-27 07:32:00.5, 1979-05-27 or 07:32:00"
        ),
        ("a = 2023-02-29", "test.toml:1:5: invalid date 2023-02-29: there is no day 29 in month 2 of year 2023"),
        ("a = 1979-13-01", "test.toml:1:5: invalid date 1979-13-01: there is no day 1 in month 13 of year 1979"),
        (
            "a = 24:00:00",
            "test.toml:1:5: invalid time 24:00:00: hours go to 23, minutes to 59 and seconds to 59 (60 in a leap)"
        ),
        (
            "a = 1979-05-27 07:32:00+24:00",
            "test.toml:1:5: invalid date-time 1979-05-27 07:32:00+24:00: an offset is at most 23:59"
        ),
        // Arrays and inline tables
        ("a = [1, 2\nb = 3", #"test.toml:2:1: expected "," or "]" in the array opened at line 1, found "b""#),
        ("a = [1 2]", #"test.toml:1:8: expected "," or "]" in the array, found "2""#),
        ("a = [1,,2]", #"test.toml:1:8: expected a value, found ",""#),
        ("a = [\n  1,\n  2,\n", #"test.toml:4:1: the array opened at line 1 is never closed with "]""#),
        ("a = { b = 1, }", "test.toml:1:14: a trailing comma is not allowed in an inline table"),
        ("a = { b = 1\n}", #"test.toml:1:12: an inline table must be closed with "}" on the line it starts"#),
        ("a = { b = 1 c = 2 }", #"test.toml:1:13: expected "," or "}" in the inline table, found "c""#),
        (
            "a = " + String(repeating: "[", count: 40),
            "test.toml:1:37: arrays and inline tables may nest at most 32 deep"
        ),
        (
            "[" + Array(repeating: "a", count: 40).joined(separator: ".") + "]",
            "test.toml:1:67: a key may have at most 32 dotted parts"
        ),
    ]

    @Test(arguments: cases)
    func reportsTheFileTheLineTheColumnAndWhatIsWrong(text: String, expected: String) {
        let error = #expect(throws: TOMLSyntaxError.self) {
            try TOMLDocument(parsing: text, fileName: "test.toml")
        }
        #expect(error?.description == expected)
    }

    @Test(
        arguments: [
            (
                [0x61, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22],
                "test.toml:1:6: the text is not UTF-8 (byte 0xFF); TOML files are UTF-8"
            ),
            (
                [0x23, 0x0A, 0x23, 0x20, 0xED, 0xA0, 0x80],
                "test.toml:2:3: the text is not UTF-8 (byte 0xED); TOML files are UTF-8"
            ),
        ] as [([UInt8], String)]
    )
    func refusesBytesThatAreNotUTF8(bytes: [UInt8], expected: String) {
        let error = #expect(throws: TOMLSyntaxError.self) {
            try TOMLDocument(parsing: bytes, fileName: "test.toml")
        }
        #expect(error?.description == expected)
    }
}
