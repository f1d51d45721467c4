/// Elements in the order they came, each taken from the front at constant cost: an array read from an index, and
/// emptied (its storage kept) once every element has been taken. The executors' queues of jobs.
public struct ArrivalQueue<Element> {
    private var elements: [Element] = []
    private var next = 0

    public init() {}

    public var isEmpty: Bool { next == elements.count }

    public mutating func append(_ element: Element) { elements.append(element) }

    /// The element that came first of those not yet taken, nil when none is left.
    public mutating func popFirst() -> Element? {
        guard next < elements.count else { return nil }
        let element = elements[next]
        next += 1
        if next == elements.count {
            elements.removeAll(keepingCapacity: true)
            next = 0
        }
        return element
    }
}
