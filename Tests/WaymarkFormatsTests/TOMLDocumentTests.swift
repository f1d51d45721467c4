import Testing

@testable import WaymarkFormats

@Suite struct TOMLDocumentTests {
    @Test(
        arguments: [
            (#""plain text""#, TOMLValue.string("plain text")),
            (#""""#, .string("")),
            (#""quote \" backslash \\ tab \t newline \n""#, .string("quote \" backslash \\ tab \t newline \n")),
            (#""\b\f\r""#, .string("\u{8}\u{C}\r")),
            (#""caf\u00E9 \U0001F697""#, .string("café 🚗")),
            (#""unescaped é and 🚗""#, .string("unescaped é and 🚗")),
            (#"'C:\no\escapes "here"'"#, .string(#"C:\no\escapes "here""#)),
            ("''", .string("")),
            ("42", .integer(42)),
            ("+17", .integer(17)),
            ("-5", .integer(-5)),
            ("0", .integer(0)),
            ("-0", .integer(0)),
            ("1_000_000", .integer(1_000_000)),
            ("0xDEAD_beef", .integer(0xDEAD_BEEF)),
            ("0o755", .integer(0o755)),
            ("0b1010", .integer(0b1010)),
            ("9223372036854775807", .integer(.max)),
            ("-9223372036854775808", .integer(.min)),
            ("1.5", .float(1.5)),
            ("-0.25", .float(-0.25)),
            ("0.5", .float(0.5)),
            ("5e3", .float(5000)),
            ("1.5E-3", .float(0.0015)),
            ("2e+2", .float(200)),
            ("1_000.000_5", .float(1000.0005)),
            ("inf", .float(.infinity)),
            ("+inf", .float(.infinity)),
            ("-inf", .float(-.infinity)),
            ("true", .boolean(true)),
            ("false", .boolean(false)),
            ("[]", .array([])),
            ("[1, 2, 3]", .array([.integer(1), .integer(2), .integer(3)])),
            (#"[ "a", 'b', ]"#, .array([.string("a"), .string("b")])),
            (
                #"[[1, 2], ["x"], []]"#,
                .array([.array([.integer(1), .integer(2)]), .array([.string("x")]), .array([])])
            ),
            (#"[1, "mixed", true, 2.5]"#, .array([.integer(1), .string("mixed"), .boolean(true), .float(2.5)])),
            ("{}", .table(TOMLTable())),
            (
                #"{ a = 1, "b c" = 'x', d = [true] }"#,
                .table(TOMLTable(["a": .integer(1), "b c": .string("x"), "d": .array([.boolean(true)])]))
            ),
            ("{ outer = { inner = 1 } }", .table(TOMLTable(["outer": .table(TOMLTable(["inner": .integer(1)]))]))),
            (
                "{ a.b = 1, a.c = 2 }",
                .table(TOMLTable(["a": .table(TOMLTable(["b": .integer(1), "c": .integer(2)]))]))
            ),
            ("\"\"\"\none\ntwo\"\"\"", .string("one\ntwo")),
            ("\"\"\"\r\nCR LF\r\nkept\"\"\"", .string("CR LF\r\nkept")),
            ("\"\"\"joined \\\n    across \\   \n\n  lines\"\"\"", .string("joined across lines")),
            (#""""two "" quotes and a tab \t"""""#, .string("two \"\" quotes and a tab \t\"")),
            (#"'''\#nC:\raw\ 'quoted' \n'''"#, .string(#"C:\raw\ 'quoted' \n"#)),
            ("''''one apostrophe around''''", .string("'one apostrophe around'")),
            ("1979-05-27T07:32:00Z", .dateTime(TOMLDateTime(date: may27, time: time(7, 32, 0), offsetMinutes: 0))),
            (
                "1979-05-27 00:32:00.999999-07:00",
                .dateTime(TOMLDateTime(date: may27, time: time(0, 32, 0, "999999"), offsetMinutes: -420))
            ),
            ("1979-05-27t07:32:00", .dateTime(TOMLDateTime(date: may27, time: time(7, 32, 0)))),
            ("1979-05-27", .dateTime(TOMLDateTime(date: may27, time: nil))),
            ("07:32:00.50", .dateTime(TOMLDateTime(date: nil, time: time(7, 32, 0, "50")))),
            (
                "2000-02-29",
                .dateTime(TOMLDateTime(date: TOMLDateTime.LocalDate(year: 2000, month: 2, day: 29), time: nil))
            ),
        ] as [(String, TOMLValue)]
    )
    func readsValue(text: String, expected: TOMLValue) throws {
        #expect(try value(of: text) == expected)
    }

    @Test(arguments: ["nan", "+nan", "-nan"])
    func readsNaN(text: String) throws {
        guard case .float(let float) = try value(of: text) else {
            Issue.record("\(text) is not a float")
            return
        }
        #expect(float.isNaN)
    }

    @Test func remembersTheLineOfEveryKey() throws {
        let text = """
            # A comment on line 1

            top = 1  # line 3
            [agent]
              device_id = "bus-1"

            [gpsd]
            port = [
              1,  # a comment inside an array
              2,
            ]
            host = "localhost"
            """
        let root = try TOMLDocument(parsing: text, fileName: "test.toml").root
        #expect(root.entries.map(\.key) == ["top", "agent", "gpsd"])
        #expect(root.entries.map(\.line) == [3, 4, 7])
        let gpsd = try #require(root["gpsd"].flatMap(Self.table))
        #expect(gpsd.entries.map(\.key) == ["port", "host"])
        #expect(gpsd.entries.map(\.line) == [8, 12])
        #expect(gpsd["port"]?.value == .array([.integer(1), .integer(2)]))
        #expect(root["agent"].flatMap(Self.table)?["device_id"]?.line == 5)
    }

    @Test func readsDottedHeadersAsNestedTables() throws {
        let text = """
            [sinks.file]
            enabled = true
            [sinks.http]
            url = "https://example.com"
            [sinks]
            """
        let root = try TOMLDocument(parsing: text, fileName: "test.toml").root
        let sinksEntry = try #require(root["sinks"])
        let sinks = try #require(Self.table(sinksEntry))
        #expect(sinksEntry.line == 5)
        #expect(!sinks.isImplied)
        #expect(sinks.entries.map(\.key) == ["file", "http"])
        #expect(sinks.entries.map(\.line) == [1, 3])
        #expect(sinks["file"].flatMap(Self.table)?["enabled"]?.value == .boolean(true))
    }

    @Test func marksTablesThatOnlyALongerHeaderOpened() throws {
        let root = try TOMLDocument(parsing: "[a . \"b c\" . 'd']\nx = 1", fileName: "test.toml").root
        let a = try #require(root["a"].flatMap(Self.table))
        let bc = try #require(a["b c"].flatMap(Self.table))
        let d = try #require(bc["d"].flatMap(Self.table))
        #expect(a.isImplied && bc.isImplied && !d.isImplied)
        #expect(d["x"]?.value == .integer(1))
    }

    @Test func readsQuotedKeys() throws {
        let text = """
            "key with spaces" = 1
            'literal "key"' = 2
            "" = 3
            "caf\\u00E9" = 4
            """
        let root = try TOMLDocument(parsing: text, fileName: "test.toml").root
        #expect(root.entries.map(\.key) == ["key with spaces", #"literal "key""#, "", "café"])
    }

    @Test func acceptsCRLFLineEndingsAndAByteOrderMark() throws {
        let text = "\u{FEFF}# comment\r\n[gpsd]\r\nport = 2947\r\nhosts = [\r\n  \"a\",\r\n]\r\n"
        let root = try TOMLDocument(parsing: text, fileName: "test.toml").root
        let gpsd = try #require(root["gpsd"].flatMap(Self.table))
        #expect(gpsd["port"] == TOMLEntry(key: "port", value: .integer(2947), line: 3))
        #expect(gpsd["hosts"]?.value == .array([.string("a")]))
    }

    @Test func readsAnEmptyDocument() throws {
        #expect(try TOMLDocument(parsing: "", fileName: "test.toml").root.entries.isEmpty)
        #expect(try TOMLDocument(parsing: "\n  \n# only a comment", fileName: "test.toml").root.entries.isEmpty)
    }

    @Test(arguments: [
        (TOMLValue.string("a \"quoted\" \\ line\n\u{1}"), #""a \"quoted\" \\ line\n\u0001""#),
        (.integer(-5), "-5"),
        (.float(2.5), "2.5"),
        (.float(-.infinity), "-inf"),
        (.boolean(false), "false"),
        (.array([.integer(1), .string("x")]), #"[1, "x"]"#),
        (.table(TOMLTable(["a": .integer(1), "b c": .boolean(true)])), #"{ a = 1, "b c" = true }"#),
    ])
    func writesValuesAsTOMLForMessages(value: TOMLValue, expected: String) {
        #expect(value.description == expected)
    }

    @Test(arguments: [
        ("1979-05-27T07:32:00Z", TOMLValue.Kind.offsetDateTime, "1979-05-27T07:32:00Z"),
        ("1979-05-27 07:32:00.5+05:30", .offsetDateTime, "1979-05-27T07:32:00.5+05:30"),
        ("1979-05-27t07:32:00.000", .localDateTime, "1979-05-27T07:32:00.000"),
        ("0001-01-01", .localDate, "0001-01-01"),
        ("23:59:60", .localTime, "23:59:60"),
    ])
    func keepsDatesAndTimesAsWritten(text: String, kind: TOMLValue.Kind, written: String) throws {
        let value = try #require(try value(of: text))
        #expect(value.kind == kind)
        #expect(value.description == written)
    }

    @Test func readsDottedKeysAndArraysOfTables() throws {
        let text = """
            sinks.file.enabled = true
            [[sinks.http]]
            url = "https://a.example"
            [sinks.http.retry]
            limit = 3
            [[sinks.http]]
            url = "https://b.example"
            """
        let root = try TOMLDocument(parsing: text, fileName: "test.toml").root
        let sinks = try #require(root["sinks"].flatMap(Self.table))
        #expect(sinks.entries.map(\.key) == ["file", "http"])
        #expect(sinks.entries.map(\.line) == [1, 2])
        #expect(sinks["file"].flatMap(Self.table)?["enabled"]?.value == .boolean(true))
        let http = sinks["http"]?.value
        #expect(http?.kind == .array)
        #expect(
            http?.description
                == #"[{ url = "https://a.example", retry = { limit = 3 } }, { url = "https://b.example" }]"#
        )
    }

    private func value(of text: String) throws -> TOMLValue? {
        try TOMLDocument(parsing: "value = \(text)\n", fileName: "test.toml").root["value"]?.value
    }

    private static func table(_ entry: TOMLEntry) -> TOMLTable? {
        guard case .table(let table) = entry.value else { return nil }
        return table
    }
}

private let may27 = TOMLDateTime.LocalDate(year: 1979, month: 5, day: 27)

private func time(_ hour: Int, _ minute: Int, _ second: Int, _ fraction: String = "") -> TOMLDateTime.LocalTime {
    TOMLDateTime.LocalTime(hour: hour, minute: minute, second: second, fraction: fraction)
}

extension TOMLTable {
    /// An inline table on line 1.
    fileprivate init(_ entries: KeyValuePairs<String, TOMLValue>) {
        self.init()
        for (key, value) in entries {
            append(TOMLEntry(key: key, value: value, line: 1))
        }
    }
}
