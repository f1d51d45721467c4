import WaymarkGPX
import WaymarkSystem

extension GPXFile {
    /// Reads and parses the GPX file at `path`.
    ///
    /// Blocking: the whole file is read with POSIX `read` on the calling thread, then parsed in memory.
    ///
    /// - Throws: ``GPXError`` naming `path`: ``GPXError/Code/unreadable`` when the file cannot be opened or read,
    ///   otherwise as ``parse(_:fileName:)``.
    public static func read(contentsOf path: String) throws(GPXError) -> GPXFile {
        try parse(contents(of: path), fileName: path)
    }
}

private func contents(of path: String) throws(GPXError) -> [UInt8] {
    do {
        return try Files.contents(path)
    } catch {
        throw GPXError(code: .unreadable, file: path, message: error.withoutPath.description)
    }
}
