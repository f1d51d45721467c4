import WaymarkUplink

/// What every network sink's section has: its server's URL, how long a request may take, the certificate
/// authorities, and the backoff of its retries (``DeliveryPolicy``).
public struct UplinkSettings: Sendable, Equatable {
    public var enabled = false
    /// The server's endpoint, `http://` or `https://`.
    public var url = ""
    /// The longest one request may take, connection included (`timeout`).
    public var timeout: Duration = .seconds(30)
    /// PEM certificate authorities to verify an `https` server against instead of the system's (`ca_file`).
    public var caFile: String?
    /// The first wait after a failure, doubling up to `retryMax` (`retry_min`, `retry_max`).
    public var retryMin: Duration = .seconds(1)
    public var retryMax: Duration = .seconds(300)

    public init() {}

    /// The delivery rules' settings.
    public var delivery: DeliveryPolicy.Settings { DeliveryPolicy.Settings(retryMin: retryMin, retryMax: retryMax) }

    /// The HTTP client's settings.
    public var client: HTTPClient.Settings { HTTPClient.Settings(timeout: timeout, caFile: caFile) }

    /// Reads the keys every network sink has; `section` is the section's name for messages.
    mutating func read(from section: inout SectionReader, defaultPort: Int?) {
        section.read("enabled", .boolean, into: &enabled)
        let example = defaultPort.map { "http://HOST:\($0)/" } ?? "https://HOST/PATH"
        section.read(
            "url",
            .string("an http:// or https:// URL with a host, such as \"\(example)\"", where: Self.isURL),
            into: &url
        )
        section.read("timeout", .duration(moreThan: .zero, atMost: .seconds(600)), into: &timeout)
        section.read("ca_file", .absolutePath, into: &caFile)
        section.read("retry_min", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &retryMin)
        section.read("retry_max", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &retryMax)
        section.requireOrder("retry_min", retryMin, notAbove: "retry_max", retryMax) { $0.configText }
        if enabled && url.isEmpty {
            section.requirePresent("url", because: "an enabled sink needs its server's URL", at: "enabled")
        }
    }

    /// An `http://` or `https://` URL with a host, and nothing a request line cannot carry.
    static func isURL(_ text: String) -> Bool {
        let schemes = ["http://", "https://"]
        guard let scheme = schemes.first(where: { text.lowercased().hasPrefix($0) }) else { return false }
        let rest = text.utf8.dropFirst(scheme.utf8.count)
        guard let first = rest.first, first != UInt8(ascii: "/"), first != UInt8(ascii: ":") else { return false }
        return text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// `[sinks.traccar]`: positions to a Traccar server over its OsmAnd protocol (README, "Uplinks").
public struct TraccarSinkSettings: Sendable, Equatable {
    public var uplink = UplinkSettings()

    public init() {}

    mutating func read(from section: inout SectionReader) { uplink.read(from: &section, defaultPort: 5055) }
}

/// `[sinks.http]`: batches of events as JSON Lines to the fleet's own HTTP endpoint (README, "Uplinks").
public struct HTTPSinkSettings: Sendable, Equatable {
    public var uplink = UplinkSettings()
    /// Whether bodies are gzip-compressed (`gzip`).
    public var gzip = true
    /// The most one request's body carries before compression (`max_batch_bytes`); a larger window is split.
    public var maxBatchBytes = ByteCount(bytes: 1 << 20)

    public init() {}

    mutating func read(from section: inout SectionReader) {
        uplink.read(from: &section, defaultPort: nil)
        section.read("gzip", .boolean, into: &gzip)
        section.read(
            "max_batch_bytes",
            .size(in: ByteCount(bytes: 1 << 10)...ByteCount(bytes: 64 << 20)),
            into: &maxBatchBytes
        )
    }
}
