/// A file the agent maps and reads in place (the gazetteer, the address file): made from its bytes and what
/// keeps them valid, checked on the way in.
public protocol MappedIndex {
    /// Reads the index in `bytes` (8-byte aligned: a mapping is page-aligned), valid as long as `owner` lives.
    ///
    /// - Throws: ``GazetteerError`` naming `file`: not such a file, another version, truncated, or corrupt.
    init(bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)?, file: String) throws(GazetteerError)
}

extension MappedIndex {
    /// The index over a copy of `bytes` (tests, and tools that hold the file in memory).
    public init(copying bytes: [UInt8], file: String) throws(GazetteerError) {
        let storage = AlignedBytes(bytes)
        try self.init(bytes: storage.buffer, owner: storage, file: file)
    }
}
