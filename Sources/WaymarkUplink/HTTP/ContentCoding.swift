/// How the batch endpoint's request bodies are coded (`Content-Encoding`): each a standard HTTP content coding a
/// backend decodes with its platform's own tools, never with Waymark's code.
public enum ContentCoding: String, CaseIterable, Sendable, Equatable {
    /// The JSON Lines as they are.
    case identity
    /// gzip (RFC 1952) through zlib: about a seventh of the JSON Lines at level 6.
    case gzip
    /// zstd (RFC 8878) through libzstd: about a ninth at level 15; levels 1 to 19 only (the `--ultra` levels
    /// pass the 8 MB window RFC 9659 allows HTTP).
    case zstd

    /// The level used when none is given: gzip's 6 (zlib's balance), and zstd's 15, past which zstd's higher
    /// levels take several times the CPU for under 2 % fewer bytes on a deferral window of locations.
    public var defaultLevel: Int {
        switch self {
        case .identity: 0
        case .gzip: 6
        case .zstd: 15
        }
    }

    /// The levels the coding takes (identity: only 0).
    public var levels: ClosedRange<Int> {
        switch self {
        case .identity: 0...0
        case .gzip: 1...9
        case .zstd: 1...19
        }
    }

    /// `body` coded at `level`, and the `Content-Encoding` header that names the coding (nil for identity).
    ///
    /// - Throws: ``UplinkFailure`` when the coding's library cannot be loaded or fails.
    public func encode(_ body: [UInt8], level: Int) throws(UplinkFailure) -> (body: [UInt8], header: String?) {
        switch self {
        case .identity: (body, nil)
        case .gzip: (try Gzip.compress(body, level: Int32(level)), "Content-Encoding: gzip")
        case .zstd: (try Zstd.compress(body, level: Int32(level)), "Content-Encoding: zstd")
        }
    }
}
