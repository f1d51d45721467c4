import Synchronization
import WaymarkCore
import WaymarkSystem

/// A live connection to gpsd through libgps: `GPSDConnection(configuration).updates()`.
///
/// Each call to ``updates()`` starts one dedicated thread that connects, watches (`WATCH_ENABLE |
/// WATCH_JSON`), reads with `gps_waiting` / `gps_read`, maps every message as replay does, and
/// reconnects with exponential backoff and jitter when gpsd is unreachable or the connection drops.
/// Ending the iteration (or cancelling the task that iterates) stops the thread and closes the socket.
/// ``reconfigure(_:)`` moves running streams to new settings (a SIGHUP reload) without ending them.
public final class GPSDConnection: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var host: String
        public var port: Int
        /// Watch only this receiver; nil watches every receiver gpsd has.
        public var device: String?
        public var reconnectMinimum: Duration
        public var reconnectMaximum: Duration
        /// How long an epoch waits for more reports before it is emitted.
        public var epochQuietPeriod: Duration
        /// Batches of updates buffered for a slow consumer before new ones are dropped (and counted).
        public var bufferLimit: Int

        public init(
            host: String = "127.0.0.1",
            port: Int = 2947,
            device: String? = nil,
            reconnectMinimum: Duration = .seconds(1),
            reconnectMaximum: Duration = .seconds(30),
            epochQuietPeriod: Duration = .milliseconds(500),
            bufferLimit: Int = 1024
        ) {
            self.host = host
            self.port = port
            self.device = device
            self.reconnectMinimum = reconnectMinimum
            self.reconnectMaximum = reconnectMaximum
            self.epochQuietPeriod = epochQuietPeriod
            self.bufferLimit = bufferLimit
        }

        /// `host:port`, with brackets around an IPv6 address.
        public var server: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    private struct State {
        var configuration: Configuration
        var controls: [ObjectIdentifier: WorkerControl] = [:]
        var watching = true
    }

    private let state: Mutex<State>

    public init(_ configuration: Configuration = .init()) { state = Mutex(State(configuration: configuration)) }

    public var configuration: Configuration { state.withLock { $0.configuration } }

    /// Applies new settings: every running stream closes its connection and connects with them at once
    /// (its thread keeps its name). Settings equal to the current ones change nothing.
    public func reconfigure(_ configuration: Configuration) {
        // Inside the lock, so two reloads reach every worker in the order they were made.
        state.withLock { state in
            state.configuration = configuration
            for control in state.controls.values { control.reconfigure(configuration) }
        }
    }

    /// Stops or restarts the watch of every running stream: false sends `WATCH_DISABLE` (gpsd may then
    /// release the receiver) and lets the thread sleep; true watches again at once. Streams started later
    /// begin with the watch asked for last.
    public func setWatching(_ on: Bool) {
        state.withLock { state in
            state.watching = on
            for control in state.controls.values { control.setWatching(on) }
        }
    }

    /// Live updates, one at a time, until the consumer stops iterating.
    public func updates() -> FlattenedUpdates { FlattenedUpdates(batches: batches()) }

    /// Live updates in the batches they were read in (one per burst of gpsd messages), until the consumer
    /// stops iterating, for a consumer on another thread.
    public func batches() -> AsyncStream<[SourceUpdate]> {
        let bufferLimit = configuration.bufferLimit
        let (stream, continuation) = AsyncStream.makeStream(
            of: [SourceUpdate].self,
            bufferingPolicy: .bufferingOldest(bufferLimit)
        )
        let stop = start(.stream(continuation)) { continuation.finish() }
        continuation.onTermination = { _ in stop() }
        return stream
    }

    /// Live updates handed to `consumer` on the connection's own thread, a batch as soon as gpsd has sent what it
    /// had (the agent's way in: the thread that read a fix runs the core, and no other thread wakes for it).
    /// Returns what stops the connection: its thread, woken at once, ends when a call of `consumer` in progress
    /// returns.
    public func deliver(to consumer: @escaping @Sendable ([SourceUpdate]) -> Void) -> @Sendable () -> Void {
        start(.inline(consumer)) {}
    }

    /// Starts a connection's thread handing its batches to `handover`, and returns what stops it; `ended` runs on
    /// that thread as it ends.
    private func start(_ handover: Handover, ended: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        // The control is made and registered under one lock, so no reconfiguration can fall between.
        let (control, port) = state.withLock { state in
            let control = WorkerControl(configuration: state.configuration)
            control.setWatching(state.watching)
            state.controls[ObjectIdentifier(control)] = control
            return (control, state.configuration.port)
        }
        let key = ObjectIdentifier(control)
        DedicatedThread.start(name: "gpsd \(port)") {
            var worker = ConnectionWorker(control: control, handover: handover)
            worker.run()
            ended()
        }
        return { [weak self] in
            control.stop()
            self?.state.withLock { _ = $0.controls.removeValue(forKey: key) }
        }
    }
}
