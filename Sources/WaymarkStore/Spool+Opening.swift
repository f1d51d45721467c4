import Glibc
import WaymarkCore
import WaymarkSystem

extension Spool {
    /// A spool that could not be opened, and where it went.
    public struct MovedAside: Equatable, Sendable {
        /// The database's new name; its WAL and shared-memory files were moved beside it.
        public var path: String
        /// Why it could not be opened.
        public var reason: String
    }

    /// Opens `directory/spool.sqlite`, creating the directory and the database as needed. A database that
    /// cannot be opened as a spool (garbage, damage, another program's file) is moved aside with `now` in its
    /// name, and a fresh one is started: the agent keeps working, and the caller says so loudly.
    ///
    /// - Throws: ``SpoolError`` when even a fresh spool cannot be made (the directory is not writable, the
    ///   disk is full).
    public static func open(inDirectory directory: String, now: Timestamp) throws(SpoolError) -> (Spool, MovedAside?) {
        do {
            try Files.makeDirectory(directory)
        } catch {
            throw SpoolError(.failed, error.description)
        }
        let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
        do {
            return (try Spool(path: path), nil)
        } catch  where error.code == .unusable {
            let stamp = now.iso8601.replacingColons()
            let aside = "\(path).corrupt-\(stamp)"
            // The WAL and shared memory first: a WAL left beside a fresh database would be replayed into it.
            for suffix in ["-wal", "-shm", ""] where access(path + suffix, F_OK) == 0 {
                guard rename(path + suffix, aside + suffix) == 0 else {
                    throw SpoolError(.failed, "cannot move \(path + suffix) aside: \(SystemError.reason(errno))")
                }
            }
            return (try Spool(path: path), MovedAside(path: aside, reason: error.message))
        }
    }
}

extension String {
    /// `2026-11-21T19:12:02.000Z` as `2026-11-21T19-12-02.000Z`: a time in a file name that every file system
    /// and tool takes.
    func replacingColons() -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }
}
