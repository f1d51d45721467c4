import Foundation

/// What this process holds, from /proc: to prove that reconnecting leaks nothing.
public enum ProcessResources {
    /// Threads of this process, or of process `pid`, whose name starts with `prefix` (Linux `comm`, 15 bytes).
    public static func threads(named prefix: String, process pid: Int32? = nil) -> Int {
        let process = pid.map { "/proc/\($0)" } ?? "/proc/self"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "\(process)/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "\(process)/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix(prefix)
        }.count
    }

    /// Open file descriptors of this process that are TCP sockets connected to 127.0.0.1:`port`.
    public static func sockets(toPort port: Int) -> Int {
        let table = readProcFile("/proc/self/net/tcp")
        let remote = String(format: "0100007F:%04X", port)
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count > 9, fields[2] == remote { inodes.insert(String(fields[9])) }
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                target.hasPrefix("socket:[")
            else { return false }
            return inodes.contains(String(target.dropFirst(8).dropLast()))
        }.count
    }

    /// A /proc file read to its end: its size says 0, and one read returns only the first page. Empty when it
    /// cannot be read: a thread that ended between the listing and the read gives ESRCH, which
    /// `readDataToEndOfFile()` would turn into a crash of the whole test process.
    public static func readProcFile(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The file `file` of this process's thread named `name` under /proc/self/task, nil when there is none.
    public static func procFile(_ file: String, ofThread name: String) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let task = tasks.first { readProcFile("/proc/self/task/\($0)/comm").trimmingCharacters(in: .newlines) == name }
        return task.map { readProcFile("/proc/self/task/\($0)/\(file)") }
    }

    /// The voluntary context switches of this process's thread named `name` (its sleeps), nil when there is none.
    public static func voluntarySwitches(ofThread name: String) -> Int? {
        let line = procFile("status", ofThread: name)?.split(separator: "\n")
            .first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    /// The scheduler state of this process's thread named `name` (`S` while it sleeps), nil when there is none.
    public static func state(ofThread name: String) -> String? {
        // `pid (comm) state …`: the state follows the last parenthesis.
        procFile("stat", ofThread: name)?.split(separator: ")").last?.split(separator: " ").first.map(String.init)
    }

    /// Each thread of process `pid` by its id: its name (Linux `comm`) and its voluntary context switches (its
    /// sleeps). A thread that ended between the listing and the reads is left out.
    public static func threadSwitches(of pid: Int32) -> [String: (name: String, switches: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var threads: [String: (name: String, switches: Int)] = [:]
        for task in tasks {
            let name = readProcFile("/proc/\(pid)/task/\(task)/comm").trimmingCharacters(in: .newlines)
            let status = readProcFile("/proc/\(pid)/task/\(task)/status")
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            if let switches = line?.split(separator: "\t").last.flatMap({ Int($0) }) {
                threads[task] = (name, switches)
            }
        }
        return threads
    }

    /// All open file descriptors of this process.
    public static func descriptorCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }
}
