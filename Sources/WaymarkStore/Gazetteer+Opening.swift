import WaymarkCore
import WaymarkSystem

extension Gazetteer {
    /// Opens the gazetteer file at `path`, mapped read-only.
    ///
    /// - Throws: ``GazetteerError`` naming the file: missing or unreadable, not a gazetteer, another version,
    ///   truncated, or damaged.
    public static func open(path: String) throws(GazetteerError) -> Gazetteer {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw GazetteerError(code: .unreadable, file: path, message: "cannot \(error.call) it: \(error.reason)")
        }
        return try Gazetteer(bytes: file.bytes, owner: file, file: path)
    }
}
