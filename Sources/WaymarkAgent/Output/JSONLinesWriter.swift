import Synchronization
import WaymarkCore
import WaymarkSystem

/// Writes events as JSON Lines to a file descriptor (stdout for `--print`), buffered.
///
/// Live, every batch is written at once so a reader sees each event as it happens; replay lets the buffer
/// fill to ``flushThreshold`` first.
public final class JSONLinesWriter: EventSink {
    private struct State {
        var buffer: [UInt8] = []
        var failed = false
    }

    private let descriptor: Int32
    private let flushThreshold: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - descriptor: where to write; 1 is stdout.
    ///   - flushThreshold: bytes buffered before a write; 0 writes every batch at once.
    public init(descriptor: Int32 = 1, flushThreshold: Int = 0) {
        self.descriptor = descriptor
        self.flushThreshold = flushThreshold
    }

    public var wantsLines: Bool { true }

    public func deliver(_ events: [Event], lines: [[UInt8]]) {
        state.withLock { state in
            for line in lines {
                state.buffer += line
                state.buffer.append(UInt8(ascii: "\n"))
            }
            if state.buffer.count >= flushThreshold { write(&state) }
        }
    }

    public func flush() {
        state.withLock { write(&$0) }
    }

    private func write(_ state: inout State) {
        defer { state.buffer.removeAll(keepingCapacity: true) }
        guard !state.failed else { return }
        // A closed pipe (`waymark run --print | head`) is not a reason to stop tracking: stop writing only.
        if !state.buffer.withUnsafeBytes({ FileDescriptorOutput.writeAll($0, to: descriptor) }) {
            state.failed = true
        }
    }
}
