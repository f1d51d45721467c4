import Foundation
import Testing
import WaymarkAgent
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// The address file built from both real extracts by `Agent.buildAddresses` (Waymark's own PBF reader), held
/// to `Tests/Fixtures/osm/oracle.py`: the extract read by osmium-tool, every address and street segment searched
/// by brute force with GeographicLib's geodesics. Thousands of seeded random points per extract: near
/// addresses, near streets, and anywhere in the extract's box.
@Suite struct AddressOracleTests {
    static let addressRadius = 50.0
    static let streetRadius = 100.0

    struct Extract: Sendable, CustomStringConvertible {
        var file: String
        /// The box the uniform points are drawn in: south, north, west, east.
        var box: (Double, Double, Double, Double)
        var description: String { file }
    }

    static let extracts = [
        Extract(file: "Helsinki.osm.pbf", box: (60.164, 60.179, 24.935, 24.953)),
        Extract(file: "liechtenstein-2013-08-03.osm.pbf", box: (47.05, 47.27, 9.47, 9.64)),
    ]

    @Test("the nearest address and street are the oracle's", arguments: extracts)
    func matchesOracle(extract: Extract) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/\(extract.file)").path
        let output = directory.appendingPathComponent("addresses.bin").path
        let built = try Agent.buildAddresses(extract: source, output: output)
        let index = try AddressIndex.open(path: output)
        #expect(index.sourceName == extract.file)
        #expect(index.licence == Agent.openStreetMapCredit)

        let points = Self.points(in: extract, near: index)
        let oracle = try Self.oracle(source, points: points, in: directory)
        // The reader and the oracle's osmium agree on what the extract holds.
        #expect(oracle.addressCount == built.addresses)

        var exactAddresses = 0
        var streetsWithin = 0
        var sameStreetName = 0
        for (point, expected) in zip(points, oracle.answers) {
            let found = index.nearestAddress(to: point, within: Self.addressRadius)
            switch (found, expected.address) {
            case (nil, nil):
                break
            case (let found?, let expected?):
                let object = index.object(at: found.index)
                let id = (object.isWay ? "w" : "n") + "\(object.id)"
                // The same address, or one as near (two address nodes on one entrance); centroids are rounded
                // to 1e-7° in the file (5 mm), the oracle's are not.
                #expect(
                    id == expected.id || abs(found.distance - expected.distance) <= 0.01,
                    "\(point): \(id) at \(found.distance) m, the oracle \(expected.id) at \(expected.distance) m"
                )
                #expect(abs(found.distance - expected.distance) <= 0.01, "\(point): \(id)")
                if id == expected.id { exactAddresses += 1 }
            case (let found?, nil):
                #expect(found.distance > Self.addressRadius - 0.01, "\(point): the oracle finds no address")
            case (nil, let expected?):
                #expect(
                    expected.distance > Self.addressRadius - 0.01,
                    "\(point): no address, the oracle \(expected.id)"
                )
            }
            let street = index.nearestStreet(to: point, within: Self.streetRadius)
            switch (street, expected.street) {
            case (nil, nil):
                break
            case (let street?, let expected?):
                // No street more than 1 m nearer than the one returned, and none returned nearer than the
                // oracle's nearest (the oracle's golden-section search is good to 0.1 mm).
                let name = index.streetName(ofPiece: street.piece)
                #expect(
                    street.distance <= expected.distance + 1 && street.distance >= expected.distance - 0.01,
                    "\(point): \(name) at \(street.distance) m, the oracle \(expected.name) at \(expected.distance) m"
                )
                // Its name is one of the streets no more than 1 m farther than the oracle's nearest.
                #expect(
                    expected.namesWithinAMetre.contains(name),
                    "\(point): \(name), the oracle's within 1 m of the nearest: \(expected.namesWithinAMetre)"
                )
                streetsWithin += 1
                if name == expected.name { sameStreetName += 1 }
            case (let street?, nil):
                #expect(street.distance > Self.streetRadius - 1, "\(point): the oracle finds no street")
            case (nil, let expected?):
                #expect(expected.distance > Self.streetRadius - 1, "\(point): no street, the oracle \(expected.name)")
            }
        }
        let addressAnswers = oracle.answers.filter { $0.address != nil }.count
        print(
            "\(extract.file): \(points.count) points; \(addressAnswers) with an address within "
                + "\(Int(Self.addressRadius)) m, \(exactAddresses) the oracle's very address; \(streetsWithin) "
                + "with a street within \(Int(Self.streetRadius)) m, \(sameStreetName) the oracle's street name"
        )
        #expect(addressAnswers > points.count / 5, "too few points near addresses to test anything")
        #expect(streetsWithin > points.count / 4, "too few points near streets to test anything")
    }

    /// 1,000 points within 80 m of an address, 1,000 within 120 m of a street piece's end, 1,000 anywhere in
    /// the box, from a fixed seed.
    static func points(in extract: Extract, near index: AddressIndex) -> [Coordinate] {
        var random = SplitMix64(seed: 0x5EED_0042)
        func offset(_ coordinate: Coordinate, upTo metres: Double) -> Coordinate {
            let north = Double.random(in: -metres...metres, using: &random)
            let east = Double.random(in: -metres...metres, using: &random)
            return Coordinate(
                latitude: coordinate.latitude + north / 111_000,
                longitude: coordinate.longitude + east / (111_000 * cos(coordinate.latitude * .pi / 180))
            )
        }
        var points: [Coordinate] = []
        for _ in 0..<1000 {
            let address = index.coordinate(at: Int.random(in: 0..<index.addressCount, using: &random))
            points.append(offset(address, upTo: 80))
        }
        for _ in 0..<1000 {
            let piece = Int.random(in: 0..<index.streetPieceCount, using: &random)
            points.append(offset(index.pieceEnds(piece).0, upTo: 120))
        }
        let (south, north, west, east) = extract.box
        for _ in 0..<1000 {
            points.append(
                Coordinate(
                    latitude: Double.random(in: south...north, using: &random),
                    longitude: Double.random(in: west...east, using: &random)
                )
            )
        }
        return points
    }

    struct Answer {
        var address: (id: String, distance: Double)?
        var street: (name: String, distance: Double, namesWithinAMetre: [String])?
    }

    /// The oracle's answers for `points`; throws, saying what to install, when it cannot run.
    static func oracle(
        _ extract: String,
        points: [Coordinate],
        in directory: URL
    ) throws -> (addressCount: Int, answers: [Answer]) {
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/oracle.py").path
        let input = directory.appendingPathComponent("points").path
        let output = directory.appendingPathComponent("oracle").path
        try points.map { "\($0.latitude) \($0.longitude)\n" }.joined().write(
            toFile: input,
            atomically: true,
            encoding: .utf8
        )
        let result = try WaymarkBinary.run(
            ["python3", script, extract, input, output, "\(addressRadius)", "\(streetRadius)"],
            executable: "/usr/bin/env",
            timeout: 600
        )
        guard result.status == 0 else {
            throw TestServerError(
                "the address oracle failed (exit \(result.status)): \(result.stderr). It needs osmium-tool (Debian) and "
                    + "python3 with geographiclib: scripts/install-deps.sh --tests installs both."
            )
        }
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        guard lines.count == points.count + 1, let counts = lines.first?.split(separator: " "), counts.count == 4,
            let addressCount = Int(counts[1])
        else { throw TestServerError("the address oracle wrote \(lines.count) lines for \(points.count) points") }
        let answers = try lines.dropFirst().map { line -> Answer in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { throw TestServerError("the address oracle wrote \(line)") }
            var answer = Answer()
            let address = fields[0].split(separator: " ")
            if address.count == 2, let distance = Double(address[1]) { answer.address = (String(address[0]), distance) }
            if fields[1] != "-", let distance = Double(fields[2]) {
                let names = fields[3].split(separator: "\u{1f}").map(String.init)
                answer.street = (String(fields[1]), distance, names)
            }
            return answer
        }
        return (addressCount, answers)
    }
}
