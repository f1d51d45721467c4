import Foundation
import Testing
import WaymarkFormats
import WaymarkTestSupport

/// toml-test's cases for TOML 1.0.0 (Tests/Fixtures/toml-test, origin and licence in its README): every valid
/// document parses to the values of its `.json`, every invalid one is refused.
@Suite struct TOMLConformanceTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/toml-test")
    static let files: [String] = {
        let list = try? String(contentsOf: directory.appendingPathComponent("files-toml-1.0.0"), encoding: .utf8)
        return (list ?? "").split(separator: "\n").map(String.init)
    }()
    static let validCases = files.filter { $0.hasPrefix("valid/") && $0.hasSuffix(".toml") }
    static let invalidCases = files.filter { $0.hasPrefix("invalid/") && $0.hasSuffix(".toml") }

    @Test func vendorsTheWholeList() {
        #expect(Self.validCases.count == 210)
        #expect(Self.invalidCases.count == 499)
        #expect(Self.files.count == 210 * 2 + 499)
    }

    @Test(arguments: validCases)
    func readsValidDocument(_ path: String) throws {
        let toml = try Self.bytes(path)
        let expected = try TaggedJSON(json: Self.bytes(String(path.dropLast(".toml".count)) + ".json"))
        let document = try TOMLDocument(parsing: toml, fileName: path)
        let read = TaggedJSON(.table(document.root))
        #expect(read.matches(expected), "read \(read)\nexpected \(expected)")
    }

    @Test(arguments: invalidCases)
    func refusesInvalidDocument(_ path: String) throws {
        let toml = try Self.bytes(path)
        let error = #expect(throws: TOMLSyntaxError.self) {
            try TOMLDocument(parsing: toml, fileName: path)
        }
        #expect(error.map { $0.line >= 1 && $0.column >= 1 } == true)
    }

    private static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }
}
