import WaymarkCore

/// A live connection to gpsd through libgps: `GPSDConnection(configuration).updates()`.
///
/// Each call to ``updates()`` starts one dedicated thread that connects, watches (`WATCH_ENABLE |
/// WATCH_JSON`), reads with `gps_waiting` / `gps_read`, maps every message as replay does, and
/// reconnects with exponential backoff and jitter when gpsd is unreachable or the connection drops.
/// Ending the iteration (or cancelling the task that iterates) stops the thread and closes the socket.
public struct GPSDConnection: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var host: String
        public var port: Int
        /// Watch only this receiver; nil watches every receiver gpsd has.
        public var device: String?
        public var reconnectMinimum: Duration
        public var reconnectMaximum: Duration
        /// How long an epoch waits for more reports before it is emitted.
        public var epochQuietPeriod: Duration
        /// Updates buffered for a slow consumer before the oldest are dropped (and counted).
        public var bufferLimit: Int

        public init(
            host: String = "127.0.0.1",
            port: Int = 2947,
            device: String? = nil,
            reconnectMinimum: Duration = .seconds(1),
            reconnectMaximum: Duration = .seconds(30),
            epochQuietPeriod: Duration = .milliseconds(500),
            bufferLimit: Int = 4096
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

    public let configuration: Configuration

    public init(_ configuration: Configuration = .init()) { self.configuration = configuration }

    /// Live updates until the consumer stops iterating.
    public func updates() -> AsyncStream<SourceUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SourceUpdate.self,
            bufferingPolicy: .bufferingOldest(configuration.bufferLimit)
        )
        let stop = StopSignal()
        continuation.onTermination = { _ in stop.stop() }
        let configuration = configuration
        DedicatedThread.start(name: "gpsd \(configuration.port)") {
            var worker = ConnectionWorker(configuration: configuration, stop: stop, continuation: continuation)
            worker.run()
            continuation.finish()
        }
        return stream
    }
}
