/// Runs `body`, failing with ``TestServerError`` if it takes longer than `seconds`.
public func withTimeout<T: Sendable>(
    seconds: Double,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TestServerError("\(what) did not finish within \(seconds) s")
        }
        return value
    }
}
