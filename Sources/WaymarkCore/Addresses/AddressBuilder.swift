import WaymarkFormats

/// Makes an address file (``AddressLayout``) from the blocks of an OpenStreetMap PBF extract (``PBFReader``).
///
/// Addresses are nodes, and closed ways, with `addr:housenumber` and `addr:street` (or `addr:place`), with
/// `addr:postcode`, `addr:city` and `addr:country` where tagged; a way stands at its centroid, or at a point
/// inside it where the centroid is not (``RingPoint``). Streets are the ways with `highway` (but
/// ``notStreets``) and `name`, their segments cut into pieces of at most ``AddressLayout/maximumPieceLength``, each with the
/// locality of the nearest address on a street of that name (``StreetLocalities``). Relations
/// (multipolygon buildings) are not read. Pure: blocks in, the file's bytes out.
///
/// Keeps every node's position until the end (16 bytes a node), since ways name their nodes by id.
public struct AddressBuilder {
    private var nodes = NodeTable()
    private var addresses: [SourceAddress] = []
    private var addressWays: [(address: SourceAddress, refs: [Int64])] = []
    private var streets: [(name: UInt32, refs: [Int64])] = []
    var strings = StringNumbering()
    private var localities = LocalityNumbering()
    /// The newest timestamp of the elements read, seconds since 1970.
    public private(set) var newestTimestamp: Int64?
    /// Of the addresses ``build(sourceName:sourceDate:)`` wrote, the ways cut by the extract's border: each
    /// stands at the mean of its nodes the extract has.
    public private(set) var cutWays = 0

    public init() {}

    /// The addresses read so far (nodes and ways).
    public var addressCount: Int { addresses.count + addressWays.count }

    /// Reads the nodes and ways of `block`.
    public mutating func add(_ block: PBFBlock) {
        if let time = block.newestTimestamp { newestTimestamp = max(newestTimestamp ?? time, time) }
        for node in block.nodes {
            nodes.append(node.id, node.latitude, node.longitude)
            guard !node.tags.isEmpty, abs(node.latitude) <= 900_000_000, var address = address(node.tags, in: block)
            else { continue }
            address.latitude = node.latitude
            address.longitude = node.longitude
            address.object = UInt64(bitPattern: node.id) &* 2
            addresses.append(address)
        }
        for way in block.ways where !way.tags.isEmpty {
            if var address = address(way.tags, in: block), way.refs.count >= 4, way.refs.first == way.refs.last {
                address.object = UInt64(bitPattern: way.id) &* 2 + 1
                addressWays.append((address, way.refs))
            }
            if let highway = block.value(of: Self.highway, in: way.tags),
                !Self.notStreets.contains(where: { $0.elementsEqual(highway) }),
                let name = block.value(of: Self.name, in: way.tags),
                !name.isEmpty, way.refs.count >= 2
            {
                streets.append((strings.index(of: name), way.refs))
            }
        }
    }

    /// The address file for what was read.
    ///
    /// - Parameters:
    ///   - sourceName: the extract's name, recorded in the file (`Helsinki.osm.pbf`).
    ///   - sourceDate: its date, ISO 8601, recorded in the file.
    /// - Throws: ``GazetteerError`` (`malformedSource`) for more addresses or pieces than a file holds.
    public mutating func build(sourceName: String, sourceDate: String) throws(GazetteerError) -> [UInt8] {
        nodes.sortIfNeeded()
        var all = addresses
        cutWays = 0
        for (address, refs) in addressWays {
            guard let centre = nodes.point(inside: refs), abs(centre.latitude) <= 900_000_000 else { continue }
            var placed = address
            (placed.latitude, placed.longitude) = (centre.latitude, centre.longitude)
            all.append(placed)
            if centre.cut { cutWays += 1 }
        }
        var pieces: [StreetPiece] = []
        for street in streets {
            var previous: (Int32, Int32)?
            for ref in street.refs {
                guard let point = nodes.coordinate(of: ref) else {
                    previous = nil
                    continue
                }
                if let start = previous { StreetPiece.cut(from: start, to: point, name: street.name, into: &pieces) }
                previous = point
            }
        }
        guard all.count <= AddressLayout.maximumRecords, pieces.count <= AddressLayout.maximumRecords else {
            throw GazetteerError(
                code: .malformedSource,
                file: sourceName,
                message: "\(all.count) addresses and \(pieces.count) street pieces; a file holds at most "
                    + "\(AddressLayout.maximumRecords) of each"
            )
        }
        strings.setReserved(
            name: sourceName,
            date: sourceDate,
            licence: "© OpenStreetMap contributors, ODbL 1.0"
        )
        let streetLocalities = StreetLocalities(all)
        for index in pieces.indices { pieces[index].locality = streetLocalities.locality(of: pieces[index]) }
        let addressOrder = KDTreeOrder.order(all.map(\.position))
        let pieceOrder = KDTreeOrder.order(pieces.map(\.midpoint))
        return AddressFileWriter.write(
            addresses: addressOrder.map { all[Int($0)] },
            pieces: pieceOrder.map { pieces[Int($0)] },
            localities: localities.triples,
            strings: strings
        )
    }

    /// The address of an element's tags, its point still unset; nil when it has none.
    private mutating func address(_ tags: ArraySlice<UInt32>, in block: PBFBlock) -> SourceAddress? {
        guard let number = block.value(of: Self.houseNumber, in: tags), !number.isEmpty,
            let street = block.value(of: Self.street, in: tags) ?? block.value(of: Self.place, in: tags),
            !street.isEmpty
        else { return nil }
        let postcode = block.value(of: Self.postcode, in: tags).map { strings.index(of: $0) } ?? 0
        let city = block.value(of: Self.city, in: tags).map { strings.index(of: $0) } ?? 0
        let country = block.value(of: Self.country, in: tags).map { strings.index(of: $0) } ?? 0
        return SourceAddress(
            houseNumber: strings.index(of: number),
            street: strings.index(of: street),
            locality: localities.index(of: [postcode, city, country])
        )
    }

    private static let highway = Array("highway".utf8)
    /// `highway` values that are no street a vehicle is on: roads not built yet, and railway platforms.
    static let notStreets = ["proposed", "construction", "platform"].map { Array($0.utf8) }
    private static let name = Array("name".utf8)
    private static let houseNumber = Array("addr:housenumber".utf8)
    private static let street = Array("addr:street".utf8)
    private static let place = Array("addr:place".utf8)
    private static let postcode = Array("addr:postcode".utf8)
    private static let city = Array("addr:city".utf8)
    private static let country = Array("addr:country".utf8)
}
