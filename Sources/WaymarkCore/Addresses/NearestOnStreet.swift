/// The nearest of one street's addresses by chord (the first in tree order of equals), for
/// ``StreetLocalities``.
struct NearestOnStreet: KDTreeRadiusSearch {
    let positions: [EarthCentered]
    let query: EarthCentered
    var reach = Double.infinity
    var bestIndex: Int?

    func position(at index: Int) -> EarthCentered { positions[index] }

    mutating func consider(_ index: Int) {
        let chord = query.squaredChord(to: positions[index]).squareRoot()
        if chord < reach || bestIndex == nil {
            reach = chord
            bestIndex = index
        }
    }
}
