import Glibc
import WaymarkCore

/// The brute force the gazetteer is held to: every one of the source's places is visited for every point.
///
/// It reads the source's text itself (`Double` of each coordinate's text) and computes its own earth-centred
/// positions in Double. For each point it computes the chord to every place, a rigorous lower bound of the
/// geodesic distance (the straight line is shortest), then the geodesic (``Geodesic/distance(from:to:)``) of
/// every place whose chord does not exceed the best geodesic distance so far: no place is skipped that could
/// be nearer. Compiled with optimization (see Package.swift), so that 15,000 exhaustive searches over 170,391
/// places take seconds in a debug build of the rest.
public struct PlacesOracle: Sendable {
    public struct Entry: Sendable {
        public var geonameID: UInt32
        public var name: String
        public var coordinate: Coordinate
    }

    public let entries: [Entry]
    private let xs: [Double]
    private let ys: [Double]
    private let zs: [Double]

    /// Reads `geonameid name latitude longitude ...` lines after a header line.
    public init(tsv: [UInt8]) {
        var entries: [Entry] = []
        for line in tsv.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count >= 4, let id = UInt32(String(decoding: fields[0], as: UTF8.self)),
                let latitude = Double(String(decoding: fields[2], as: UTF8.self)),
                let longitude = Double(String(decoding: fields[3], as: UTF8.self))
            else { preconditionFailure("a malformed line: \(String(decoding: line, as: UTF8.self))") }
            entries.append(
                Entry(
                    geonameID: id,
                    name: String(decoding: fields[1], as: UTF8.self),
                    coordinate: Coordinate(latitude: latitude, longitude: longitude)
                )
            )
        }
        self.entries = entries
        let positions = entries.map { Self.position($0.coordinate) }
        xs = positions.map(\.0)
        ys = positions.map(\.1)
        zs = positions.map(\.2)
    }

    /// The nearest place to `point` and its geodesic distance, metres; of places at the same distance, the first.
    public func nearest(to point: Coordinate) -> (entry: Entry, distance: Double) {
        let (qx, qy, qz) = Self.position(point)
        var best = Double.infinity
        var bestIndex = 0
        var minimumChord = Double.infinity
        var chords = [Double](repeating: 0, count: entries.count)
        // Every place's chord, and the nearest by chord: its geodesic bounds the answer.
        for index in 0..<entries.count {
            let dx = xs[index] - qx
            let dy = ys[index] - qy
            let dz = zs[index] - qz
            let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
            chords[index] = chord
            if chord < minimumChord {
                minimumChord = chord
                bestIndex = index
            }
        }
        best = Geodesic.distance(from: entries[bestIndex].coordinate, to: point)
        // Every place whose chord could still beat the best: 1 µm for the rounding of the chords.
        for index in 0..<entries.count where chords[index] <= best + 1e-6 && index != bestIndex {
            let distance = Geodesic.distance(from: entries[index].coordinate, to: point)
            if distance < best || (distance == best && index < bestIndex) {
                best = distance
                bestIndex = index
            }
        }
        return (entries[bestIndex], best)
    }

    /// Earth-centred, earth-fixed metres of a point of the WGS84 ellipsoid, in Double.
    static func position(_ coordinate: Coordinate) -> (Double, Double, Double) {
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        let n = a / (1 - e2 * sin(latitude) * sin(latitude)).squareRoot()
        return (
            n * cos(latitude) * cos(longitude), n * cos(latitude) * sin(longitude), n * (1 - e2) * sin(latitude)
        )
    }
}
