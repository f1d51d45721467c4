import WaymarkCore

extension AddressIndex {
    /// Opens the address file at `path`, mapped read-only, checked as `verifying` says: the agent's start and
    /// reload check its bounds only (``AddressIndex/Verification/bounds``), since a whole check reads the file.
    ///
    /// - Throws: ``GazetteerError`` naming the file: missing or unreadable, not an address file, another
    ///   version, truncated, or (checked whole) damaged.
    public static func open(path: String, verifying: Verification) throws(GazetteerError) -> AddressIndex {
        let file = try mapped(path)
        return try AddressIndex(bytes: file.bytes, owner: file, file: path, verifying: verifying)
    }
}
