import Synchronization
import WaymarkCore

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
    private let encoder: EventEncoder
    private let flushThreshold: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - descriptor: where to write; 1 is stdout.
    ///   - flushThreshold: bytes buffered before a write; 0 writes every batch at once.
    public init(descriptor: Int32 = 1, encoder: EventEncoder = .init(), flushThreshold: Int = 0) {
        self.descriptor = descriptor
        self.encoder = encoder
        self.flushThreshold = flushThreshold
    }

    public func deliver(_ events: [Event]) {
        state.withLock { state in
            for event in events { encoder.encode(event, into: &state.buffer) }
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
