/// Gives each street piece the locality of the nearest address tagged with the same street name, so that a
/// street is named with the town its own addresses say ("Kaivokatu, Helsinki"), not the nearest GeoNames place,
/// which may be a district or, near a border, a town across it.
///
/// Addresses without a locality are passed over; a piece whose street has no address keeps locality 0 and is
/// named with the populated place at lookup. Per street name, an implicit k-d tree of its addresses: a
/// common name (Germany's Hauptstraße) has thousands of addresses and pieces, too many to compare pairwise.
struct StreetLocalities {
    private struct Street {
        var positions: [EarthCentered]
        var localities: [UInt32]
    }

    private var streets: [UInt32: Street] = [:]

    init(_ addresses: [SourceAddress]) {
        var grouped: [UInt32: [SourceAddress]] = [:]
        for address in addresses where address.locality != 0 { grouped[address.street, default: []].append(address) }
        for (name, members) in grouped {
            let points = members.map(\.position)
            let order = KDTreeOrder.order(points).map { members[Int($0)] }
            streets[name] = Street(
                positions: order.map {
                    EarthCentered(x: Double($0.position.x), y: Double($0.position.y), z: Double($0.position.z))
                },
                localities: order.map(\.locality)
            )
        }
    }

    /// The locality of the address named `name` nearest `piece`'s midpoint, by chord; 0 when none.
    func locality(of piece: StreetPiece) -> UInt32 {
        guard let street = streets[piece.name] else { return 0 }
        let midpoint = piece.midpoint
        var search = NearestOnStreet(
            positions: street.positions,
            query: EarthCentered(x: Double(midpoint.x), y: Double(midpoint.y), z: Double(midpoint.z))
        )
        search.walk(0, street.positions.count, axis: 0)
        return search.bestIndex.map { street.localities[$0] } ?? 0
    }
}
