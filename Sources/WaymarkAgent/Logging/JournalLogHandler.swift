import Logging
import WaymarkSystem

/// Diagnostics for systemd's journal, when stderr is its stream: each line starts with its syslog priority
/// (`<3>` an error, `<4>` a warning, `<6>` information, `<7>` debugging), which journald takes as the entry's
/// priority and strips, and carries no time of its own (the journal has it).
///
///     <4>gpsd at 127.0.0.1:2947 is unavailable: connection refused code=gpsd_unavailable
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let write: @Sendable (String) -> Void

    /// - Parameter write: takes each whole line, newline included (stderr by default: one `write` per line,
    ///   so that lines of two threads never interleave).
    public init(write: @escaping @Sendable (String) -> Void = { FileDescriptorOutput.writeAll($0, to: 2) }) {
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let explicit = event.metadata { all.merge(explicit) { $1 } }
        write(Self.line(event.level, "\(event.message)", metadata: all))
    }

    /// `<priority>message key=value …` and a newline; a message or value of several lines stays one entry.
    static func line(_ level: Logger.Level, _ message: String, metadata: Logger.Metadata = [:]) -> String {
        var line = "<\(priority(level))>" + message
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        // One entry per line: a line break inside the message or a value would start an entry of its own.
        return line.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ") + "\n"
    }

    /// The syslog priority of a level (`syslog(3)`: 2 critical, 3 error, 4 warning, 5 notice, 6 info, 7 debug).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
