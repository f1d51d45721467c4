/// `[gpsd]`: where gpsd listens, which receiver to watch, and how fast to reconnect when gpsd goes away.
public struct GPSDSettings: Sendable, Equatable {
    /// The longest reconnect delay a file may set: one hour.
    public static let longestReconnectDelay: Duration = .seconds(3600)

    /// gpsd's host name or IP address (`host`).
    public var host: String
    /// gpsd's TCP port, 1 to 65535 (`port`).
    public var port: Int
    /// The one receiver to watch, such as `/dev/ttyACM0` (`device`); nil watches every device gpsd has.
    public var device: String?
    /// The first delay before reconnecting to gpsd (`reconnect_min`); more than zero.
    public var reconnectMinimum: Duration
    /// The delay that reconnecting doubles up to (`reconnect_max`); at least ``reconnectMinimum``, at most
    /// ``longestReconnectDelay``.
    public var reconnectMaximum: Duration

    public init(
        host: String = "127.0.0.1",
        port: Int = 2947,
        device: String? = nil,
        reconnectMinimum: Duration = .seconds(1),
        reconnectMaximum: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.device = device
        self.reconnectMinimum = reconnectMinimum
        self.reconnectMaximum = reconnectMaximum
    }
}

extension GPSDSettings {
    /// Reads `[gpsd]`.
    mutating func read(from section: inout SectionReader) {
        let delay = ValueRule.duration(moreThan: .zero, atMost: Self.longestReconnectDelay)
        section.read("host", .hostName, into: &host)
        section.read("port", .integer(in: 1...65535), into: &port)
        section.read("device", .absolutePath, into: &device)
        section.read("reconnect_min", delay, into: &reconnectMinimum)
        section.read("reconnect_max", delay, into: &reconnectMaximum)
        section.requireOrder(
            "reconnect_min",
            reconnectMinimum,
            notAbove: "reconnect_max",
            reconnectMaximum,
            describe: \.configText
        )
    }
}
