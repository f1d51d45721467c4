import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkFormats

/// Zone data that is not a valid TZif file is a thrown error naming the zone and the problem, never a crash.
@Suite struct ZoneInfoBadInputTests {
    static let berlin = Result {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))
    }

    static func error(_ bytes: [UInt8]) -> ZoneInfoError? {
        do {
            _ = try ZoneInfo(tzif: bytes, name: "Test/Zone")
            return nil
        } catch {
            return error
        }
    }

    @Test("every truncation of a real file is refused as truncated")
    func truncated() throws {
        let bytes = try Self.berlin.get()
        for length in 0..<bytes.count {
            let error = Self.error(Array(bytes.prefix(length)))
            #expect(error?.code == .truncated, "\(length) bytes: \(String(describing: error))")
            #expect(error?.description.hasPrefix("zone Test/Zone: truncated: ") == true)
        }
    }

    @Test("a wrong magic, a version 9, a bad footer, a type out of range")
    func damaged() throws {
        let bytes = try Self.berlin.get()
        var magic = bytes
        magic[0] = UInt8(ascii: "X")
        #expect(Self.error(magic)?.code == .notTZif)
        var version = bytes
        version[4] = UInt8(ascii: "9")
        #expect(Self.error(version)?.code == .unsupportedVersion)
        var footer = bytes
        footer[footer.count - 5] = UInt8(ascii: "!")
        let footerError = Self.error(footer)
        #expect(footerError?.code == .invalidFooter)
        #expect(footerError?.description.contains("footer TZ string") == true, "\(String(describing: footerError))")
        // The first transition's type index in the 64-bit block, after the version 1 block and the second header.
        func count(_ header: Int, _ field: Int) -> Int {
            (0..<4).reduce(0) { $0 << 8 | Int(bytes[header + 20 + 4 * field + $1]) }
        }
        // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
        let counts = (0..<6).map { count(0, $0) }
        let second = 44 + counts[3] * 5 + counts[4] * 6 + counts[5] + counts[2] * 8 + counts[1] + counts[0]
        var type = bytes
        type[second + 44 + count(second, 3) * 8] = 200
        let typeError = Self.error(type)
        #expect(typeError?.code == .invalidData && typeError?.description.contains("names type 200") == true)
        #expect(Self.error(Array(bytes.prefix(44)) + [UInt8](repeating: 0, count: 100)) != nil)
    }

    @Test("random bytes, and random damage to a real file: an error or a zone, never a crash")
    func random() throws {
        var generator = SplitMix64(seed: 20)
        for size in [0, 1, 44, 100, 4096] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Self.error(bytes)?.code == .truncated || Self.error(bytes)?.code == .notTZif)
            #expect(Self.error(Array("TZif2".utf8) + bytes) != nil)
        }
        let berlin = try Self.berlin.get()
        for _ in 0..<2000 {
            var bytes = berlin
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let zone = try? ZoneInfo(tzif: bytes, name: "Test/Zone") {
                _ = zone.localTime(at: Int64.random(in: -(1 << 40)...(1 << 40), using: &generator))
            }
        }
    }
}
