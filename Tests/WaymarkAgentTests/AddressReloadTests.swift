import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkAgent

/// The address file at a reload: opened again when it was installed or replaced since, whatever the path
/// says, and `addresses = ""` switches it off.
@Suite struct AddressReloadTests {
    static func built(_ extract: String, to output: String) throws -> Int {
        let source = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/\(extract)").path
        return try Agent.buildAddresses(extract: source, output: output).addresses
    }

    @Test("a file installed, then moved over, after the start is opened at the next reload")
    func reopensAChangedFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("addresses.bin").path
        var configuration = Configuration()
        configuration.places.file = directory.appendingPathComponent("no-places.bin").path
        configuration.places.addresses = path
        var core = AgentCore(
            configuration: configuration,
            clockFloor: nil,
            storage: nil,
            sink: DiscardingSink(),
            logger: Logger(label: "test")
        )
        #expect(core.places?.addresses == nil)
        // Installed after the start: the same settings, reloaded, open it.
        let helsinki = try Self.built("Helsinki.osm.pbf", to: path)
        core.apply(configuration, wallClock: Timestamp(seconds: 0), now: .zero)
        #expect(core.places?.addresses?.addressCount == helsinki)
        // Another file moved over it (a new inode), as an install does.
        let staged = directory.appendingPathComponent("staged.bin").path
        let liechtenstein = try Self.built("liechtenstein-2013-08-03.osm.pbf", to: staged)
        #expect(rename(staged, path) == 0)
        core.apply(configuration, wallClock: Timestamp(seconds: 0), now: .zero)
        #expect(core.places?.addresses?.addressCount == liechtenstein && liechtenstein != helsinki)
    }

    @Test("addresses = \"\" is no address file, not a configuration error")
    func emptySwitchesOff() throws {
        let configuration = try Configuration.parse("[places]\naddresses = \"\"\n", fileName: "waymark.toml")
        #expect(configuration.places.addresses == nil && configuration.places.addressFileToOpen == nil)
        #expect(throws: (any Error).self) {
            _ = try Configuration.parse("[places]\naddresses = \"a\"\n", fileName: "w")
        }
    }
}
