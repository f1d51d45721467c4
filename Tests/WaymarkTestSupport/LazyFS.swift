import Foundation

/// LazyFS (`Tests/Tools/lazyfs`, MIT, a separate program), built once per machine and mounted by a test: a FUSE
/// file system with its own page cache, whose unsynced bytes it throws away on command, as a power cut does to a
/// board's page cache. ``disk`` holds what reached the "disk"; ``mountPoint`` is what the program under test uses.
///
/// Needs root and `/dev/fuse` (see ``unavailableReason``). One command at a time: LazyFS reads two commands written
/// at once as one unknown command, so each command waits a little after writing.
public final class LazyFS: @unchecked Sendable {
    public let directory: URL
    /// The files as they are on the disk underneath: only what was synced, once a cut has thrown the rest away.
    public let disk: URL
    public let mountPoint: URL
    private let fifo: String
    private let configFile: URL
    public let log: URL
    private let executable: String
    private var process: Process?

    /// Why LazyFS cannot run here (not root, no `/dev/fuse`), or nil when it can.
    public static var unavailableReason: String? {
        if getuid() != 0 { return "LazyFS needs root (FUSE's allow_other and fusermount3)" }
        if access("/dev/fuse", R_OK | W_OK) != 0 { return "LazyFS needs /dev/fuse, which this machine does not have" }
        return nil
    }

    /// Builds LazyFS when this machine has no build of it yet and mounts it on a fresh temporary directory.
    public init() throws {
        executable = try Self.build()
        directory = try Fixtures.temporaryDirectory()
        disk = directory.appendingPathComponent("disk")
        mountPoint = directory.appendingPathComponent("mnt")
        fifo = directory.appendingPathComponent("faults.fifo").path
        configFile = directory.appendingPathComponent("lazyfs.toml")
        log = directory.appendingPathComponent("lazyfs.log")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // No eviction: every unsynced byte stays in the cache until a sync or a cut. 64 MB is allocated at mount.
        try """
        [faults]
        fifo_path="\(fifo)"
        [cache]
        apply_eviction=false
        [cache.simple]
        custom_size="64mb"
        blocks_per_page=1
        [filesystem]
        log_all_operations=false
        logfile="\(log.path)"

        """.write(to: configFile, atomically: true, encoding: .utf8)
        try mount()
    }

    deinit {
        unmount()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether the LazyFS process still runs (a `crash` or torn fault kills it when it fires).
    public var isRunning: Bool { process?.isRunning ?? false }

    /// The power cut: every byte not synced is thrown away. The program under test must be killed first.
    public func clearCache() throws { try command("lazyfs::clear-cache") }

    /// Kills LazyFS (its cache with it) `timing` ("before" or "after") the first `op` ("fsync", "write",
    /// "rename", …) on a path that matches the regular expression `path`.
    /// For a rename, `path` is matched against the new name.
    public func crash(_ timing: String, _ op: String, path: String) throws {
        // A rename's fault needs both patterns: with `to_rgx` alone this LazyFS never fires (it then matches the
        // old name against the pattern `none`).
        let paths = op == "rename" ? "from_rgx=\(path)::to_rgx=\(path)" : "from_rgx=\(path)"
        try command("lazyfs::crash::timing=\(timing)::op=\(op)::\(paths)")
    }

    /// The next write to the file at `path` (below ``mountPoint``) is cut into `parts` equal parts, of which only
    /// those numbered in `persist` (from 1) reach the disk; then LazyFS dies.
    public func tornOp(_ path: String, parts: Int, persist: [Int]) throws {
        let persisted = persist.map(String.init).joined(separator: ",")
        try command("lazyfs::torn-op::file=\(diskPath(of: path))::persist=\(persisted)::parts=\(parts)")
    }

    /// Of the next run of writes to the file at `path` (below ``mountPoint``) with no sync between them, only
    /// those numbered in `persist` (from 1) reach the disk; then LazyFS dies.
    public func tornSeq(_ path: String, persist: [Int]) throws {
        let persisted = persist.map(String.init).joined(separator: ",")
        try command("lazyfs::torn-seq::op=write::file=\(diskPath(of: path))::persist=\(persisted)")
    }

    /// The path LazyFS sees for `path` below the mount point: the same file under ``disk``.
    private func diskPath(of path: String) -> String {
        disk.path + path.dropFirst(mountPoint.path.count)
    }

    /// The reboot after a cut: unmounts (LazyFS ends, or has ended) and mounts again over the same disk.
    public func remount() throws {
        unmount()
        try mount()
    }

    /// Writes one command to the faults fifo and gives LazyFS time to read it alone.
    public func command(_ text: String) throws {
        guard isRunning else { throw TestServerError("LazyFS is not running for \(text): \(logTail)") }
        let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw TestServerError("opening \(fifo): errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array((text + "\n").utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw TestServerError("writing \(text) to \(fifo): errno \(errno)")
        }
        usleep(300_000)
    }

    /// The last lines of LazyFS's log, for messages.
    public var logTail: String {
        String(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(800))
    }

    /// The lines of LazyFS's log about faults, for messages.
    public var faultLog: String {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").filter {
            $0.contains("fault") || $0.contains("critical")
        }.suffix(20).joined(separator: "\n")
    }

    private func mount() throws {
        unlink(fifo)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            mountPoint.path, "--config-path", configFile.path, "-o", "allow_other", "-o", "modules=subdir", "-o",
            "subdir=\(disk.path)", "-f",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while !(Self.isMounted(mountPoint.path) && access(fifo, F_OK) == 0) {
            guard process.isRunning, Date() < deadline else {
                process.stop()
                throw TestServerError("LazyFS did not mount \(mountPoint.path) within 30 s: \(logTail)")
            }
            usleep(20_000)
        }
    }

    /// Unmounts and waits for LazyFS to end (it ends with status 134 on unmount: harmless).
    public func unmount() {
        guard let process else { return }
        self.process = nil
        if Self.isMounted(mountPoint.path) {
            let unmount = try? WaymarkBinary.run(["-u", "-z", mountPoint.path], executable: "/bin/fusermount3")
            if unmount?.status != 0 { _ = try? WaymarkBinary.run([mountPoint.path], executable: "/bin/umount") }
        }
        process.stop(graceful: true)
    }

    private static func isMounted(_ path: String) -> Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(path) }
    }

    /// The path of `lazyfs`, built from `Tests/Tools/lazyfs` into the temporary directory once (`build-debian.sh`
    /// installs its Debian build dependencies when they are missing).
    static func build() throws -> String {
        try Fixtures.buildTool("lazyfs", into: "waymark-lazyfs-a47a5ba-1")
    }
}
