import Foundation
import Testing
import WaymarkFormats
import WaymarkTestSupport

/// JSONTestSuite's parsing cases (Tests/Fixtures/JSONTestSuite, origin and licence in its README): every `y_`
/// text is read to its end, every `n_` text is refused.
@Suite struct JSONConformanceTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/JSONTestSuite/test_parsing")
    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    static let mustAccept = files.filter { $0.hasPrefix("y_") }
    static let mustRefuse = files.filter { $0.hasPrefix("n_") }

    @Test func vendorsEveryCase() {
        #expect(Self.mustAccept.count == 95)
        #expect(Self.mustRefuse.count == 188)
    }

    @Test(arguments: mustAccept)
    func accepts(_ name: String) throws {
        var reader = try JSONReader(Self.bytes(name))
        _ = try JSONTree.read(&reader)
        try reader.finish()
    }

    @Test(arguments: mustRefuse)
    func refuses(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let error = #expect(throws: JSONReaderError.self) {
            var reader = try JSONReader(bytes)
            _ = try JSONTree.read(&reader)
            try reader.finish()
        }
        #expect(error.map { $0.position.line >= 1 && $0.position.column >= 1 } == true)
    }

    private static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
