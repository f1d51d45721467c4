import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkCore
@testable import WaymarkFormats

/// The address file built from the Helsinki extract by Core's builder over Waymark's PBF reader: what it
/// records, the order of names in `PlaceFinder`, and every damaged file or extract refused with what and where.
@Suite struct AddressFileTests {
    static let extract = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/Helsinki.osm.pbf").path

    static func extractBytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: extract))) }

    static func built() throws -> [UInt8] {
        var reader = try PBFReader(bytes: try extractBytes())
        var builder = AddressBuilder()
        while let block = try reader.nextBlock() { builder.add(block) }
        return try builder.build(sourceName: "Helsinki.osm.pbf", sourceDate: "2019-04-21T09:50:14Z")
    }

    @Test func recordsItsSourceAndLicence() throws {
        let index = try AddressIndex(copying: try Self.built(), file: "addresses.bin")
        #expect(index.sourceName == "Helsinki.osm.pbf")
        #expect(index.sourceDate == "2019-04-21T09:50:14Z")
        #expect(index.licence == "© OpenStreetMap contributors, ODbL 1.0")
        // 1,359 address nodes and 86 address ways, 10 of them cut by the extract's border.
        #expect(index.addressCount == 1445)
    }

    @Test("an address's fields as tagged: the node of Helsinki's railway station, n25389429")
    func addressFields() throws {
        let index = try AddressIndex(copying: try Self.built(), file: "addresses.bin")
        // Its coordinate as osmium prints it: x24.9414566 y60.1713198.
        let station = Coordinate(latitude: 60.171_319_8, longitude: 24.941_456_6)
        let found = try #require(index.nearestAddress(to: station, within: 1))
        #expect(index.object(at: found.index) == (25_389_429, false))
        #expect(found.distance == 0)
        let address = index.address(at: found.index, distance: found.distance)
        #expect(address.description == "Kaivokatu 1, 00100 Helsinki")
        #expect(address.houseNumber == "1" && address.street == "Kaivokatu" && address.country == nil)
    }

    @Test("site, then address, then street, then populated place")
    func order() throws {
        let index = try AddressIndex(copying: try Self.built(), file: "addresses.bin")
        let station = Coordinate(latitude: 60.171_319_8, longitude: 24.941_456_6)
        let finder = PlaceFinder(gazetteer: nil, addresses: index)
        #expect(finder.place(at: station)?.address?.houseNumber == "1")
        // 20 m north of it, with no address radius, the nearest street answers: a name and no house number.
        let north = Coordinate(latitude: station.latitude + 0.000_18, longitude: station.longitude)
        var streetsOnly = finder
        streetsOnly.settings.addressRadius = 0
        let street = try #require(streetsOnly.place(at: north)?.address)
        let nearest = try #require(index.nearestStreet(to: north, within: 100))
        #expect(street.houseNumber == nil && street.distance == nearest.distance && street.distance > 0)
        #expect(street.street == index.streetName(ofPiece: nearest.piece))
        // Nothing within either radius: no address, and (without a gazetteer) no place.
        var none = streetsOnly
        none.settings.streetRadius = 0
        #expect(none.lookup(north) == .none)
    }

    @Test("a street is named with the city its own addresses are tagged with, not the nearest populated place")
    func streetLocality() throws {
        let index = try AddressIndex(copying: try Self.built(), file: "addresses.bin")
        var streetsOnly = PlaceFinder(gazetteer: nil, addresses: index)
        streetsOnly.settings.addressRadius = 0
        // At the corner of Fabianinkatu and Pohjoisesplanadi, whose nearest GeoNames place is the district
        // Kaartinkaupunki; without a gazetteer, the city came from nowhere before streets had localities.
        let street = try #require(streetsOnly.place(at: Coordinate(latitude: 60.1677, longitude: 24.9495))?.address)
        #expect(street.city == "Helsinki")
        #expect(street.postcode == nil)
        // Every piece: the locality of a nearest address of its street name (brute force, geodesic, 1 m for
        // ties and the chord), or none when no address of that name has one.
        var byStreet: [String: [(Coordinate, String?)]] = [:]
        for address in 0..<index.addressCount {
            let fields = index.address(at: address, distance: 0)
            guard fields.postcode != nil || fields.city != nil || fields.country != nil else { continue }
            byStreet[fields.street, default: []].append((index.coordinate(at: address), fields.city))
        }
        var named = 0
        for piece in stride(from: 0, to: index.streetPieceCount, by: 7) {
            let (a, b) = index.pieceEnds(piece)
            let middle = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
            let city = index.locality(ofPiece: piece).city
            guard let candidates = byStreet[index.streetName(ofPiece: piece)] else {
                #expect(city == nil && index.locality(ofPiece: piece).postcode == nil)
                continue
            }
            let distances = candidates.map { Geodesic.distance(from: $0.0, to: middle) }
            let nearest = try #require(distances.min())
            let cities = Set(zip(candidates, distances).filter { $0.1 <= nearest + 1 }.map(\.0.1))
            #expect(cities.contains(city), "piece \(piece) of \(index.streetName(ofPiece: piece))")
            if city != nil { named += 1 }
        }
        #expect(named > 100)
    }

    @Test("a highway not built yet, or a platform, is no street", arguments: ["proposed", "construction", "platform"])
    func notStreets(highway: String) throws {
        var block = PBFBlock()
        block.strings = ["", "highway", "name", "residential", highway, "Built Street", "Other Street"].map {
            Array($0.utf8)[...]
        }
        block.nodes = (1...4).map {
            PBFNode(id: Int64($0), latitude: 601_700_000 + Int32($0) * 1000, longitude: 249_400_000, tags: [])
        }
        block.ways = [
            PBFWay(id: 1, refs: [1, 2], tags: [1, 3, 2, 5]),
            PBFWay(id: 2, refs: [3, 4], tags: [1, 4, 2, 6]),
        ]
        var builder = AddressBuilder()
        builder.add(block)
        let index = try AddressIndex(copying: try builder.build(sourceName: "t", sourceDate: ""), file: "t")
        #expect(index.streetPieceCount == 1)
        #expect(index.streetName(ofPiece: 0) == "Built Street")
    }

    @Test(
        "a damaged file is refused, naming the file and what to do",
        arguments: [
            ("truncated", "truncated"),
            ("extended", "extended"),
            ("flipped", "checksum does not match"),
            ("magic", "no WMADDRES magic"),
            ("version", "format version 3"),
            ("short", "too short"),
        ]
    )
    func damaged(damage: String, message: String) throws {
        var bytes = try Self.built()
        switch damage {
        case "truncated": bytes.removeLast(32)
        case "extended": bytes += [UInt8](repeating: 0, count: 32)
        case "flipped": bytes[bytes.count / 2] ^= 0x10
        case "magic": bytes[0] = UInt8(ascii: "X")
        case "version": bytes[8] = 3
        default: bytes = Array(bytes.prefix(4))
        }
        #expect {
            _ = try AddressIndex(copying: bytes, file: "/var/addresses.bin")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("/var/addresses.bin: ") && text.contains(message)
                && text.contains("waymark places build-addresses")
        }
    }

    /// `bytes` opened as the agent opens a mapping: checked for bounds only.
    static func boundsChecked(_ bytes: [UInt8]) throws -> AddressIndex {
        let storage = AlignedBytes(bytes)
        return try AddressIndex(bytes: storage.buffer, owner: storage, file: "addresses.bin", verifying: .bounds)
    }

    @Test("checked for bounds only, a file with damaged records opens and answers without reading outside it")
    func boundsOnly() throws {
        var bytes = try Self.built()
        let count = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        // Address 0's house number, street and locality indices (after 12 + 8 + 8 bytes an address), and street
        // piece 0's name and locality (after 12 + 16 bytes a piece), all beyond the file's strings and localities.
        let fields = 64 + 28 * count
        for offset in fields..<(fields + 12) { bytes[offset] = 0xff }
        let pieces = Int(bytes[16]) | Int(bytes[17]) << 8 | Int(bytes[18]) << 16 | Int(bytes[19]) << 24
        let names = fields + 12 * count + 28 * pieces
        for offset in [names, names + 4 * pieces] { for byte in offset..<(offset + 4) { bytes[byte] = 0xff } }
        #expect(throws: GazetteerError.self) { _ = try AddressIndex(copying: bytes, file: "addresses.bin") }
        let index = try Self.boundsChecked(bytes)
        let address = index.address(at: 0, distance: 0)
        #expect(address.houseNumber == "" && address.street == "" && address.postcode == nil && address.city == nil)
        #expect(index.streetName(ofPiece: 0) == "" && index.locality(ofPiece: 0).city == nil)
        #expect(index.address(at: 1, distance: 0).street != "")
        // A flipped byte: refused whole (the checksum), opened by bounds.
        var flipped = try Self.built()
        flipped[flipped.count / 2] ^= 0x10
        #expect(throws: GazetteerError.self) { _ = try AddressIndex(copying: flipped, file: "addresses.bin") }
        #expect(try Self.boundsChecked(flipped).addressCount == count)
        // What bounds still refuse: a file cut short.
        #expect(throws: GazetteerError.self) { _ = try Self.boundsChecked(Array(flipped.dropLast(32))) }
    }

    @Test("a damaged extract is refused with the blob's offset")
    func damagedExtract() throws {
        var bytes = try Self.extractBytes()
        bytes[bytes.count / 2] ^= 0x55
        #expect {
            var reader = try PBFReader(bytes: bytes)
            while try reader.nextBlock() != nil {}
        } throws: { error in
            "\(error)".hasPrefix("at byte ")
        }
        #expect(throws: PBFError.self) {
            var reader = try PBFReader(bytes: Array(try Self.extractBytes().prefix(100_000)))
            while try reader.nextBlock() != nil {}
        }
        #expect(throws: PBFError.self) { _ = try PBFReader(bytes: Array("not a pbf file".utf8)) }
    }
}
