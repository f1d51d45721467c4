import WaymarkFormats

/// The keys of one JSON object read so far, with where each was given, to find one given twice.
///
/// Objects of a region file have a handful of keys: a short array is searched until it holds
/// ``linearSearchLimit`` of them, then a dictionary takes over, so that a hostile object of many keys is not
/// quadratic.
struct SeenKeys {
    private static let linearSearchLimit = 16
    private var few: [(key: String, position: TextPosition)] = []
    private var many: [String: TextPosition] = [:]

    /// Records `key`, given at `position`; returns where it was given first if it was given before.
    mutating func insert(_ key: String, at position: TextPosition) -> TextPosition? {
        if !many.isEmpty {
            if let first = many[key] { return first }
            many[key] = position
            return nil
        }
        if let first = few.first(where: { $0.key == key }) { return first.position }
        few.append((key, position))
        if few.count > Self.linearSearchLimit {
            many = Dictionary(few.map { ($0.key, $0.position) }, uniquingKeysWith: { first, _ in first })
            few = []
        }
        return nil
    }
}
