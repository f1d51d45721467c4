import WaymarkSystem

/// This process's disk I/O so far, from `/proc/self/io` (Linux): what `waymark replay --spool` reports so
/// that the wear of a configuration can be measured.
public struct ProcessIO: Sendable, Equatable {
    /// Bytes this process caused to be written to storage (`write_bytes`: counted when pages are dirtied).
    public var writeBytes: Int64
    /// Write system calls (`syscw`).
    public var writeCalls: Int64

    /// The counters now; nil where `/proc/self/io` cannot be read.
    public static func current() -> ProcessIO? {
        guard let bytes = try? Files.contents("/proc/self/io"), !bytes.isEmpty else { return nil }
        var values: [Substring: Int64] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int64(parts[1].trimmingPrefix(" ")) { values[parts[0]] = value }
        }
        guard let written = values["write_bytes"], let calls = values["syscw"] else { return nil }
        return ProcessIO(writeBytes: written, writeCalls: calls)
    }
}
