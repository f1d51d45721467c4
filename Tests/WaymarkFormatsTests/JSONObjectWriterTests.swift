import Testing
import WaymarkFormats

@Suite struct JSONObjectWriterTests {
    private func object(_ body: (inout JSONObjectWriter) -> Void) -> String {
        var buffer = Array("before\n".utf8)
        JSONObjectWriter.write(into: &buffer, body)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func writesMembersInOrderAndLeavesOutUnknownNumbers() {
        let text = object { writer in
            writer.string("type", "pause \"here\"\n")
            writer.integer("seq", -7)
            writer.number("whole", 12)
            writer.number("fraction", 0.25)
            writer.number("unknown", .nan)
            writer.number("absent", nil)
            writer.boolean("on", true)
            writer.null("none")
            writer.integer(named: "a\"b", 3)
        }
        #expect(
            text
                == #"before\#n{"type":"pause \"here\"\n","seq":-7,"whole":12,"fraction":0.25,"on":true,"none":null,"a\"b":3}\#n"#
        )
    }

    @Test func nestsObjectsAndArrays() {
        let text = object { writer in
            writer.strings("ids", ["a", "b"])
            writer.strings("empty", [])
            writer.object("place") { $0.string("name", "Kelheim") }
            writer.objects("sinks", [1, 2]) { writer, n in writer.integer("n", Int64(n)) }
        }
        #expect(
            text == #"before\#n{"ids":["a","b"],"empty":[],"place":{"name":"Kelheim"},"sinks":[{"n":1},{"n":2}]}\#n"#
        )
    }

    @Test func aMemberMayWriteItsOwnValue() {
        let text = object { writer in
            writer.integer("seq", 1)
            writer.member("fixed") { $0.append(contentsOf: "0.500".utf8) }
        }
        #expect(text == "before\n{\"seq\":1,\"fixed\":0.500}\n")
    }

    @Test(arguments: [(1.25, 1, 1.3), (-1.25, 1, -1.3), (2.0004, 3, 2.0), (123.4567, 0, 123.0)])
    func roundsHalfAwayFromZero(value: Double, places: Int, expected: Double) {
        #expect(JSONObjectWriter.rounded(value, places: places) == expected)
    }
}
