import Glibc
import WaymarkSystem

/// A gpsd child process of waymark's own, reading one `tcp://` device and serving one loopback port, with its
/// stderr on a pipe that waymark reads (gpsd writes no file: no control socket, no pid file).
///
/// ``stop()`` ends it (SIGTERM, then SIGKILL after 2 s) and waits for it; `deinit` does the same, so no path
/// out of a replay leaves it running.
final class PrivateGPSD {
    /// The port gpsd serves its clients on, on 127.0.0.1.
    let port: Int
    /// The read end of gpsd's stderr (non-blocking), -1 once closed.
    private(set) var stderr: Int32
    private(set) var pid: pid_t
    private var status: Int32?
    /// The end of what gpsd wrote to stderr, for messages.
    private var diagnostics: [UInt8] = []

    /// Starts `program` as `gpsd -N -b -S PORT DEVICE`.
    init(program: GPSDProgram, port: Int, device: String) throws(ReplayError) {
        self.port = port
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw ReplayError("\(SystemError(call: "make a pipe for gpsd"))", code: .gpsdFailed)
        }
        defer { close(ends[1]) }
        stderr = ends[0]
        pid = 0
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let arguments = [program.path, "-N", "-b", "-S", "\(port)", device]
        let result = Self.spawn(program.path, arguments, stderr: ends[1], pid: &pid)
        guard result == 0 else {
            close(ends[0])
            stderr = -1
            status = 0  // Nothing to wait for.
            throw ReplayError("\(SystemError(call: "start", path: program.path, errno: result))", code: .gpsdFailed)
        }
    }

    deinit {
        stop()
    }

    /// Whether gpsd has exited (it is reaped then). A child that is not waymark's to wait for any more
    /// (`ECHILD`: reaped elsewhere) has exited too, with an unknown status.
    var hasExited: Bool {
        guard status == nil else { return true }
        var value: Int32 = 0
        switch SystemCall.retryingInterrupts({ waitpid(pid, &value, WNOHANG) }) {
        case pid: status = value
        case -1: status = -1
        default: return false
        }
        return true
    }

    /// Whether gpsd sleeps (waits for input), as /proc says: any state but running. True when /proc cannot
    /// tell, so that silence alone decides.
    var isAsleep: Bool {
        guard let stat = try? Files.contents("/proc/\(pid)/stat") else { return true }
        // `pid (comm) S ...`: the state follows the last `)`.
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return true }
        return stat[close + 2] != UInt8(ascii: "R")
    }

    /// How gpsd ended, and the last line it wrote to stderr: `exit status 1: gpsd:ERROR: …`.
    var exitDescription: String {
        var text = "running"
        if status == -1 {
            text = "exited"
        } else if let status {
            let signal = status & 0x7F
            text = signal == 0 ? "exit status \((status >> 8) & 0xFF)" : "killed by signal \(signal)"
        }
        let lines = String(decoding: diagnostics, as: UTF8.self).split(whereSeparator: \.isNewline)
        if let last = lines.last(where: { !$0.contains("DBUS") }) { text += ": \(last)" }
        return text
    }

    /// Reads what gpsd wrote to stderr, keeping its last 2 KB; closes the pipe at its end.
    func drainStderr() {
        guard stderr >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = SystemCall.retryingInterrupts { read(stderr, &buffer, buffer.count) }
            if count > 0 {
                diagnostics.append(contentsOf: buffer[..<count])
                if diagnostics.count > 2048 { diagnostics.removeFirst(diagnostics.count - 2048) }
            } else {
                if count == 0 || errno != EAGAIN {
                    close(stderr)
                    stderr = -1
                }
                return
            }
        }
    }

    /// Ends gpsd and waits for it: SIGTERM, SIGKILL after 2 s. Closes its stderr.
    func stop() {
        if !hasExited {
            kill(pid, SIGTERM)
            var waited = 0
            while !hasExited {
                if waited == 2000 { kill(pid, SIGKILL) }
                usleep(5_000)
                waited += 5
            }
        }
        if stderr >= 0 {
            close(stderr)
            stderr = -1
        }
    }

    /// `posix_spawn` with stdin and stdout on /dev/null, stderr on `stderr`, and SIGHUP, SIGINT, SIGTERM and
    /// SIGPIPE at their defaults in the child (whatever waymark traps or ignores); 0 or an errno.
    private static func spawn(_ path: String, _ arguments: [String], stderr: Int32, pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        return posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    }
}
