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

    /// The centroid of the closed ring `refs` (1e-7 degree): the centre of its area by the shoelace formula in
    /// latitude and longitude (an affine map of any local plane, so the same centre); the mean of its corners
    /// when it has no area or the centre falls outside the ring's box (a ring that crosses itself). Nil when a
    /// node is missing.
    func centroid(of refs: [Int64]) -> (Int32, Int32)? {
        var corners: [(Double, Double)] = []
        corners.reserveCapacity(refs.count)
        for ref in refs {
            guard let (latitude, longitude) = coordinate(of: ref) else { return nil }
            corners.append((Double(longitude), Double(latitude)))
        }
        // Relative to the first corner, so that the products stay small and exact enough.
        let (x0, y0) = corners[0]
        var twiceArea = 0.0
        var sumX = 0.0
        var sumY = 0.0
        for index in 0..<(corners.count - 1) {
            let (xa, ya) = (corners[index].0 - x0, corners[index].1 - y0)
            let (xb, yb) = (corners[index + 1].0 - x0, corners[index + 1].1 - y0)
            let cross = xa * yb - xb * ya
            twiceArea += cross
            sumX += (xa + xb) * cross
            sumY += (ya + yb) * cross
        }
        let xs = corners.map { $0.0 - x0 }
        let ys = corners.map { $0.1 - y0 }
        var x = sumX / (3 * twiceArea)
        var y = sumY / (3 * twiceArea)
        // A ring with no area, or one that crosses itself so that its centre falls outside its box: the mean
        // of its corners, which is always inside the box (and so a valid coordinate).
        if !(abs(twiceArea) > 1e-3) || !(xs.min()!...xs.max()!).contains(x) || !(ys.min()!...ys.max()!).contains(y) {
            x = xs.dropLast().reduce(0, +) / Double(corners.count - 1)
            y = ys.dropLast().reduce(0, +) / Double(corners.count - 1)
        }
        return (Int32((y + y0).rounded()), Int32((x + x0).rounded()))
    }
}
