import WaymarkCore

/// A connection's batches of updates, one update at a time.
public struct FlattenedUpdates: AsyncSequence, Sendable {
    public typealias Element = SourceUpdate

    let batches: AsyncStream<[SourceUpdate]>

    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: AsyncStream<[SourceUpdate]>.AsyncIterator
        var current: [SourceUpdate] = []
        var index = 0

        public mutating func next() async -> SourceUpdate? {
            while index == current.count {
                guard let batch = await batches.next() else { return nil }
                current = batch
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(batches: batches.makeAsyncIterator()) }
}
