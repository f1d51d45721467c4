import Glibc
import WaymarkSystem

/// Files appended to during one delivery, synced together at its end: one fsync per file per delivery, however
/// many batches it took. A write that fails is cut off again, so a file never keeps half a line.
final class AppendingFiles {
    private var open: [String: Int32] = [:]
    /// Directories in which a file was created: synced too, so the new file's name is durable.
    private var newIn: Set<String> = []
    /// Bytes appended and fsyncs made (files and directories), since this was made.
    private(set) var bytesWritten: Int64 = 0
    private(set) var syncs = 0

    deinit { closeAll() }

    func append(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let descriptor: Int32
        if let known = open[path] {
            descriptor = known
        } else {
            if Files.size(path) == nil { newIn.insert(path) }
            descriptor = try Files.openForAppending(path)
            open[path] = descriptor
        }
        let size = Files.size(path) ?? 0
        do {
            try Files.write(bytes, to: descriptor, path: path)
            bytesWritten += Int64(bytes.count)
        } catch {
            try? Files.truncate(path, to: size)
            throw error
        }
    }

    /// Syncs every file appended to, `first` before the others and the rest by name (a day's log before the next
    /// day's: what a cut between two fsyncs keeps does not depend on a dictionary's order), and the directories of
    /// new ones; then closes them.
    func sync(first: String? = nil) throws(SystemError) {
        defer { closeAll() }
        syncs += open.count + newIn.count
        if let first, let descriptor = open[first] { try Files.sync(descriptor, path: first) }
        for (path, descriptor) in open.sorted(by: { $0.key < $1.key }) where path != first {
            try Files.sync(descriptor, path: path)
        }
        for path in newIn.sorted() { Files.syncDirectory(of: path) }
        newIn.removeAll()
    }

    private func closeAll() {
        for descriptor in open.values { close(descriptor) }
        open.removeAll()
    }
}
