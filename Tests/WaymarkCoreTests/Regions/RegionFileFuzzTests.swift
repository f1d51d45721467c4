import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite("RegionFile under mutated input")
struct RegionFileFuzzTests {
    @Test("mutations of the example never trap, and the results keep their promises")
    func mutatedExample() throws {
        let example = try [UInt8](Data(contentsOf: RegionFileExampleTests.path))
        let lineCount = example.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let interesting = Array(#"{}[],:"\-.e09 "#.utf8) + Array("null".utf8) + [0x0A, 0xC3, 0xFF]
        var random = SplitMix64(seed: 0x6E0_F022)
        var outcomes: Set<String> = []
        for _ in 0..<3_000 {
            var bytes = example
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = interesting.randomElement(using: &random)!
                case 1: bytes.insert(interesting.randomElement(using: &random)!, at: index)
                default: bytes.remove(at: index)
                }
            }
            let file = RegionFile(parsing: bytes, fileName: "regions.geojson")
            let problems = file.problems
            #expect(problems.map(\.position) == problems.map(\.position).sorted())
            for problem in problems {
                #expect((1...(lineCount + 3)).contains(problem.position.line) && problem.position.column >= 1)
            }
            for feature in file.features {
                #expect((feature.entry == nil) == !feature.problems.isEmpty, "features[\(feature.index)]")
                #expect(feature.region == nil || feature.beaconRegion == nil, "features[\(feature.index)]")
                #expect(feature.problems.allSatisfy { $0.featureIndex == feature.index && $0.featureID == feature.id })
            }
            do {
                let entries = try file.checkedEntries()
                #expect(problems.isEmpty && entries == file.entries)
                #expect(try file.checkedRegions() == file.regions)
                let again = RegionFile(parsing: RegionFile.encode(entries: entries), fileName: "regions.geojson")
                #expect(try again.checkedEntries() == entries)
                outcomes.insert("accepted")
            } catch {
                #expect(error.problems == problems && !problems.isEmpty)
                outcomes.formUnion(problems.map(\.code.description))
            }
        }
        // The mutations reach the checks of every level, not only the JSON syntax.
        for outcome in [
            "accepted", "malformed JSON", "malformed feature", "unsupported geometry", "invalid coordinates",
        ] {
            #expect(outcomes.contains(outcome), "no mutant gave \(outcome): \(outcomes.sorted())")
        }
    }
}
