import WaymarkCore
import WaymarkSystem

extension MappedIndex {
    /// Opens the file at `path`, mapped read-only.
    ///
    /// - Throws: ``GazetteerError`` naming the file: missing or unreadable, not such a file, another version,
    ///   truncated, or damaged.
    public static func open(path: String) throws(GazetteerError) -> Self {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw GazetteerError(code: .unreadable, file: path, message: "cannot \(error.call) it: \(error.reason)")
        }
        return try Self(bytes: file.bytes, owner: file, file: path)
    }
}
