/// Postcode, city and country triples (string indices), numbered in the order first met; 0 is "none".
struct LocalityNumbering {
    private(set) var triples: [[UInt32]] = [[0, 0, 0]]
    private var indices: [[UInt32]: UInt32] = [[0, 0, 0]: 0]

    mutating func index(of triple: [UInt32]) -> UInt32 {
        if let index = indices[triple] { return index }
        let index = UInt32(triples.count)
        triples.append(triple)
        indices[triple] = index
        return index
    }
}
