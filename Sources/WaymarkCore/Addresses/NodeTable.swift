/// Every node's position by id, for the ways that name their nodes: three parallel arrays, sorted by id
/// (PBF extracts come sorted, so sorting is usually a check), searched by bisection.
struct NodeTable {
    private var ids: [Int64] = []
    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []
    private var sorted = true

    mutating func append(_ id: Int64, _ latitude: Int32, _ longitude: Int32) {
        if let last = ids.last, last >= id { sorted = false }
        ids.append(id)
        latitudes.append(latitude)
        longitudes.append(longitude)
    }

    mutating func sortIfNeeded() {
        guard !sorted else { return }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        ids = order.map { ids[$0] }
        latitudes = order.map { latitudes[$0] }
        longitudes = order.map { longitudes[$0] }
        sorted = true
    }

    /// The position of node `id` (1e-7 degree), nil when the extract lacks it (a way cut at its border).
    func coordinate(of id: Int64) -> (Int32, Int32)? {
        var lo = 0
        var hi = ids.count
        while lo < hi {
            let middle = lo + (hi - lo) / 2
            if ids[middle] < id { lo = middle + 1 } else { hi = middle }
        }
        guard lo < ids.count, ids[lo] == id else { return nil }
        return (latitudes[lo], longitudes[lo])
    }

    /// The point of the closed ring `refs` (1e-7 degree) that stands for it: ``RingPoint``; for a ring cut by
    /// the extract's border (`cut`), the mean of the corners the extract has, since its shape is unknown. Nil
    /// when the extract has none of them.
    func point(inside refs: [Int64]) -> (latitude: Int32, longitude: Int32, cut: Bool)? {
        var corners: [(x: Double, y: Double)] = []
        corners.reserveCapacity(refs.count)
        for ref in refs {
            guard let (latitude, longitude) = coordinate(of: ref) else { continue }
            corners.append((Double(longitude), Double(latitude)))
        }
        if corners.count == refs.count {
            let (x, y) = RingPoint.point(inside: corners)
            return (Int32(y.rounded()), Int32(x.rounded()), false)
        }
        // The ring's last corner is its first: counted once, when the extract has it.
        if refs.count > 1, coordinate(of: refs[refs.count - 1]) != nil { corners.removeLast() }
        guard !corners.isEmpty else { return nil }
        let count = Double(corners.count)
        let x = corners.reduce(0) { $0 + $1.x } / count
        let y = corners.reduce(0) { $0 + $1.y } / count
        return (Int32(y.rounded()), Int32(x.rounded()), true)
    }
}
