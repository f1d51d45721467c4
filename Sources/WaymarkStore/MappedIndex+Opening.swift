import WaymarkCore
import WaymarkSystem

extension MappedIndex {
    /// Opens the file at `path`, mapped read-only.
    ///
    /// - Throws: ``GazetteerError`` naming the file: missing or unreadable, not such a file, another version,
    ///   truncated, or damaged.
    public static func open(path: String) throws(GazetteerError) -> Self {
        let file = try mapped(path)
        return try Self(bytes: file.bytes, owner: file, file: path)
    }

    /// The file at `path`, mapped read-only.
    static func mapped(_ path: String) throws(GazetteerError) -> MappedFile {
        do {
            return try MappedFile(path: path)
        } catch {
            throw GazetteerError(code: .unreadable, file: path, message: "cannot \(error.call) it: \(error.reason)")
        }
    }
}
