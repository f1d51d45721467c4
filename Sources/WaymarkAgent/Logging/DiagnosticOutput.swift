import Glibc
import Logging

/// Where diagnostics go: stderr, read by a person on a terminal (or a file), or systemd's journal.
public enum DiagnosticOutput {
    /// Whether stderr is a stream to journald: systemd sets `$JOURNAL_STREAM` to `DEVICE:INODE` of the stream it
    /// connects, and only when stderr is still that file (not redirected by a script) are the lines the
    /// journal's.
    public static let isJournal: Bool = {
        guard let text = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return streamMatches(text, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }()

    /// Whether `$JOURNAL_STREAM`'s text names the file of `device` and `inode`.
    static func streamMatches(_ text: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let named = UInt64(parts[0]), let number = UInt64(parts[1]) else { return false }
        return named == device && number == inode
    }

    /// Sends swift-log's output to stderr: through ``JournalLogHandler`` when it is the journal, else as
    /// swift-log's own stream handler writes it (with a time on every line).
    public static func bootstrap() {
        if isJournal {
            LoggingSystem.bootstrap { _ in JournalLogHandler() }
        } else {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
        }
    }

    /// A line a command writes to stderr itself (a configuration refused, a usage error), marked as an error
    /// for the journal.
    public static func errorLine(_ line: String) -> String {
        isJournal ? JournalLogHandler.line(.error, line) : line + "\n"
    }
}
