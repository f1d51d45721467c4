/// A search of an implicit k-d tree (``KDTreeOrder``) for the points within a reach that may shrink as the
/// search finds nearer ones: the search visits every point whose chord from the query is within ``reach``,
/// and prunes every half of the tree that lies farther than that along its splitting axis.
protocol KDTreeRadiusSearch {
    /// The query's earth-centred point.
    var query: EarthCentered { get }
    /// Metres of chord; a point farther than this from the query is never considered.
    var reach: Double { get }
    /// The stored point of the tree's node `index`.
    func position(at index: Int) -> EarthCentered
    /// Called for each point within ``reach``, in the tree's order.
    mutating func consider(_ index: Int)
}

extension KDTreeRadiusSearch {
    /// Walks the nodes `lo ..< hi` of the tree, whose split is along `axis` (0 x, 1 y, 2 z).
    mutating func walk(_ lo: Int, _ hi: Int, axis: Int) {
        guard lo < hi else { return }
        let middle = lo + (hi - lo) >> 1
        let position = position(at: middle)
        let reach = reach
        if query.squaredChord(to: position) <= reach * reach { consider(middle) }
        let offset = query[axis] - position[axis]
        let next = axis == 2 ? 0 : axis + 1
        if offset < 0 {
            walk(lo, middle, axis: next)
            if -offset <= self.reach { walk(middle + 1, hi, axis: next) }
        } else {
            walk(middle + 1, hi, axis: next)
            if offset <= self.reach { walk(lo, middle, axis: next) }
        }
    }
}
