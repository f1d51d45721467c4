import Testing
import WaymarkFormats

/// ``JSONValue``: a document read is one that can be written back as it was read.
@Suite struct JSONValueTests {
    /// Found by `scripts/fuzz.sh json` (input `1e3080`): a number past a Double's range read as an infinity,
    /// which the tree wrote back as `null`; `waymark fleet send` re-encodes an operator's waypoints file so.
    @Test(arguments: ["1e3080", "[1,-1e400]", #"{"rad":1e309}"#])
    func refusesNumbersBeyondDoubleRange(text: String) {
        let error = #expect(throws: JSONReaderError.self) { try JSONValue(parsing: Array(text.utf8)) }
        #expect(error?.message.contains("range") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["1.7976931348623157e308", "-1e-400", #"{"a":[null,true,"\u00e9",0.1]}"#])
    func writesBackWhatItRead(text: String) throws {
        let value = try JSONValue(parsing: Array(text.utf8))
        var written: [UInt8] = []
        value.append(to: &written)
        #expect(try JSONValue(parsing: written) == value)
    }
}
