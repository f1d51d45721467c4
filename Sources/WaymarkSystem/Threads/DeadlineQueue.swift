/// Elements waiting for their deadlines (nanoseconds on the monotonic clock): a binary min-heap, so the earliest is
/// read at once and an insertion or a removal costs a logarithm. Elements with the same deadline come out in the
/// order they went in. No clock: the caller passes `now`.
struct DeadlineQueue<Element> {
    private var heap: [(deadline: Int64, order: UInt64, element: Element)] = []
    private var inserted: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The earliest deadline, nil when empty.
    var earliest: Int64? { heap.first?.deadline }

    mutating func insert(_ element: Element, at deadline: Int64) {
        heap.append((deadline, inserted, element))
        inserted &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest element if its deadline is at or before `now`.
    mutating func popDue(at now: Int64) -> Element? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && precedes(left, smallest) { smallest = left }
            if right < heap.count && precedes(right, smallest) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first.element
    }

    private func precedes(_ index: Int, _ other: Int) -> Bool {
        (heap[index].deadline, heap[index].order) < (heap[other].deadline, heap[other].order)
    }
}
