import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkFormats

/// A JSON value as Foundation's `JSONDecoder` reads it: the reference the reader's results are held to.
private indirect enum ReferenceTree: Decodable, Equatable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([ReferenceTree])
    case object([String: ReferenceTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ReferenceTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ReferenceTree].self))
        }
    }

    /// The reader's tree in the same terms; nil if it holds a number beyond `Double`'s range, which Foundation
    /// refuses and the reader reads as an infinity.
    init?(_ tree: JSONTree) {
        switch tree {
        case .null: self = .null
        case .boolean(let value): self = .boolean(value)
        case .number(let value):
            guard value.isFinite else { return nil }
            self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements):
            var converted: [ReferenceTree] = []
            for element in elements {
                guard let element = ReferenceTree(element) else { return nil }
                converted.append(element)
            }
            self = .array(converted)
        case .object(let members):
            var converted: [String: ReferenceTree] = [:]
            for member in members {
                guard let value = ReferenceTree(member.value) else { return nil }
                converted[member.key] = value
            }
            self = .object(converted)
        }
    }
}

@Suite("JSONReader under random and mutated input")
struct JSONReaderFuzzTests {
    /// A document with every kind of value, escapes, numbers at the edges and nesting.
    static let seed = Array(
        #"""
        {"type": "FeatureCollection", "n": [0, -0, 1.5e-3, -12E+2, 1e22, 9007199254740993, 0.1],
         "s": ["", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\uD83D\uDE00", "Straße 🚚"],
         "nested": [[[[]]], {}, {"k": {"k": [true, false, null]}}],
         "features": [{"type": "Feature", "properties": {"id": "x", "radius": 50}}]}
        """#.utf8
    )

    @Test("random bytes never trap: each is read or refused with a position inside the text")
    func randomBytes() {
        var random = SplitMix64(seed: 0xF0CC_0001)
        let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfnaulrsx"#.utf8) + [0x0A, 0x0D, 0x09, 0xC3, 0xA9, 0xFF, 0x00]
        var accepted = 0
        var refused = 0
        for _ in 0..<30_000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            if let error = JSONTree.error(bytes) {
                refused += 1
                #expect(error.position.line >= 1 && error.position.column >= 1)
                #expect(error.position.line <= bytes.count + 1, "\(bytes)")
            } else {
                accepted += 1
            }
        }
        #expect(accepted > 100, "the inputs reach past the first byte")
        #expect(refused > 20_000)
    }

    @Test("mutated documents never trap, and what the reader accepts Foundation reads the same")
    func mutatedDocuments() throws {
        var random = SplitMix64(seed: 0xF0CC_0002)
        let interesting = Array(#"{}[],:"\-.e0 "#.utf8) + [0x0A, 0xC3, 0xBF, 0xED, 0xA0, 0x80]
        var accepted = 0
        for _ in 0..<5_000 {
            var bytes = Self.seed
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[index] = interesting.randomElement(using: &random)!
                case 1: bytes.insert(interesting.randomElement(using: &random)!, at: index)
                case 2: bytes.remove(at: index)
                default: bytes[index] = UInt8.random(in: 0...255, using: &random)
                }
            }
            guard let tree = try? JSONTree.parse(bytes) else { continue }
            accepted += 1
            guard let expected = ReferenceTree(tree) else { continue }
            let reference = try? JSONDecoder().decode(ReferenceTree.self, from: Data(bytes))
            #expect(reference == expected, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(accepted > 500, "some mutations keep the document well-formed")
    }
}
