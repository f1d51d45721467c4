/// A piece of a named street: a straight stretch between two points (1e-7 degree) no longer than
/// ``AddressLayout/maximumPieceLength``.
struct StreetPiece {
    var start: (Int32, Int32)
    var end: (Int32, Int32)
    var name: UInt32
    /// The locality of the nearest address on a street of the same name; 0 for none.
    var locality: UInt32 = 0

    /// The earth-centred midpoint of the chord between the ends, rounded to Float.
    var midpoint: (x: Float, y: Float, z: Float) {
        let a = EarthCentered(SourcePlace.coordinate(latitude: start.0, longitude: start.1))
        let b = EarthCentered(SourcePlace.coordinate(latitude: end.0, longitude: end.1))
        return (Float((a.x + b.x) / 2), Float((a.y + b.y) / 2), Float((a.z + b.z) / 2))
    }

    /// Appends the segment `from`–`to` to `pieces`, cut into equal pieces short enough; a segment across the
    /// antimeridian (a longitude step over 180°) or with an end beyond the poles (bad data) is left out.
    static func cut(from: (Int32, Int32), to: (Int32, Int32), name: UInt32, into pieces: inout [StreetPiece]) {
        guard abs(Int64(to.1) - Int64(from.1)) <= 1_800_000_000, abs(from.0) <= 900_000_000, abs(to.0) <= 900_000_000
        else { return }
        let a = EarthCentered(SourcePlace.coordinate(latitude: from.0, longitude: from.1))
        let b = EarthCentered(SourcePlace.coordinate(latitude: to.0, longitude: to.1))
        // 1 % short of the maximum, so that rounding the cut points to 1e-7° cannot make a piece too long.
        let count = max(
            1,
            Int((a.squaredChord(to: b).squareRoot() / (AddressLayout.maximumPieceLength * 0.99)).rounded(.up))
        )
        var previous = from
        for index in 1...count {
            let fraction = Double(index) / Double(count)
            let point =
                index == count
                ? to
                : (
                    Int32((Double(from.0) + fraction * Double(Int64(to.0) - Int64(from.0))).rounded()),
                    Int32((Double(from.1) + fraction * Double(Int64(to.1) - Int64(from.1))).rounded())
                )
            pieces.append(StreetPiece(start: previous, end: point, name: name))
            previous = point
        }
    }

    /// Metres along the geodesic from `point` to the nearest point of the piece `a`–`b`: the nearest point of
    /// the chord between their earth-centred points, carried back to latitude and longitude by the same
    /// fraction. For pieces of 100 m the chord's nearest point is within a millimetre of the surface's.
    static func distance(from point: Coordinate, to a: Coordinate, _ b: Coordinate) -> Double {
        let p = EarthCentered(point)
        let pa = EarthCentered(a)
        let pb = EarthCentered(b)
        let (dx, dy, dz) = (pb.x - pa.x, pb.y - pa.y, pb.z - pa.z)
        let squared = dx * dx + dy * dy + dz * dz
        var fraction = 0.0
        if squared > 0 {
            fraction = ((p.x - pa.x) * dx + (p.y - pa.y) * dy + (p.z - pa.z) * dz) / squared
            fraction = min(1, max(0, fraction))
        }
        let nearest = Coordinate(
            latitude: a.latitude + fraction * (b.latitude - a.latitude),
            longitude: a.longitude + fraction * (b.longitude - a.longitude)
        )
        return Geodesic.distance(from: nearest, to: point)
    }
}
