/// The order of an implicit k-d tree over points in three dimensions.
///
/// The point of a range `lo ..< hi` of the result is its middle one, `lo + (hi - lo) / 2`: the median along
/// axis `depth % 3` (x, y, z), with every point before it no larger and every point after it no smaller on
/// that axis. The tree needs no pointers, and a search walks it by index (``Gazetteer``).
enum KDTreeOrder {
    /// The indices of `points` in tree order.
    static func order(_ points: [(x: Float, y: Float, z: Float)]) -> [Int32] {
        let keys = [points.map(\.x), points.map(\.y), points.map(\.z)]
        var indices = (0..<Int32(points.count)).map { $0 }
        var ranges = [(lo: 0, hi: points.count, depth: 0)]
        while let (lo, hi, depth) = ranges.popLast() {
            guard hi - lo > 1 else { continue }
            let middle = lo + (hi - lo) / 2
            select(middle, in: &indices, lo: lo, hi: hi, keys: keys[depth % 3])
            ranges.append((lo, middle, depth + 1))
            ranges.append((middle + 1, hi, depth + 1))
        }
        return indices
    }

    /// Reorders `indices[lo ..< hi]` so that the one at `k` is where sorting by `keys` would put it, with
    /// none larger before it and none smaller after it (Hoare's selection, median of three pivots).
    private static func select(_ k: Int, in indices: inout [Int32], lo: Int, hi: Int, keys: [Float]) {
        var lo = lo
        var hi = hi - 1
        while hi > lo {
            let middle = lo + (hi - lo) / 2
            let pivot = median(keys[Int(indices[lo])], keys[Int(indices[middle])], keys[Int(indices[hi])])
            var i = lo
            var j = hi
            while i <= j {
                while keys[Int(indices[i])] < pivot { i += 1 }
                while keys[Int(indices[j])] > pivot { j -= 1 }
                if i <= j {
                    indices.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return
            }
        }
    }

    private static func median(_ a: Float, _ b: Float, _ c: Float) -> Float {
        max(min(a, b), min(max(a, b), c))
    }
}
