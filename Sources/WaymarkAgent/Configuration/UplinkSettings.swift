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
    /// The most bytes a UTC day on the wire (`max_bytes_per_day`); past it locations wait. Nil: no limit.
    public var maxBytesPerDay: ByteCount?
    /// Where the sink starts when it is first enabled (`start`): the spool's oldest event, or now.
    public var start = SinkStart.oldest

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
        section.read("max_bytes_per_day", Self.dailyBytes, into: &maxBytesPerDay)
        section.read("start", .oneOf, into: &start)
        if enabled && url.isEmpty {
            section.requirePresent("url", because: "an enabled sink needs its server's URL", at: "enabled")
        }
    }

    /// `max_bytes_per_day`: from 1KB to 1TB.
    static let dailyBytes = ValueRule<ByteCount>.size(in: ByteCount(bytes: 1 << 10)...ByteCount(bytes: 1 << 40))

    /// An `http://` or `https://` URL with a host, and nothing a request line cannot carry.
    static func isURL(_ text: String) -> Bool {
        let schemes = ["http://", "https://"]
        guard let scheme = schemes.first(where: { text.lowercased().hasPrefix($0) }) else { return false }
        let rest = text.utf8.dropFirst(scheme.utf8.count)
        guard let first = rest.first, first != UInt8(ascii: "/"), first != UInt8(ascii: ":") else { return false }
        return text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// `[sinks.traccar]`: positions to a Traccar server over its OsmAnd protocol (docs/uplinks.md, "Uplinks").
public struct TraccarSinkSettings: Sendable, Equatable {
    public var uplink = UplinkSettings()

    public init() {}

    mutating func read(from section: inout SectionReader) { uplink.read(from: &section, defaultPort: 5055) }
}

/// `[sinks.http]`: batches of events as JSON Lines to the fleet's own HTTP endpoint (docs/uplinks.md,
/// "Uplinks").
public struct HTTPSinkSettings: Sendable, Equatable {
    public var uplink = UplinkSettings()
    /// How bodies are coded (`content_encoding`; the older `gzip = true` is `gzip`, `gzip = false` `identity`).
    public var contentEncoding = ContentEncodingSetting.auto
    /// The coding's level (`compression_level`, for one coding); nil is the coding's ``ContentCoding/defaultLevel``.
    public var compressionLevel: Int?
    /// The most one request's body carries before compression (`max_batch_bytes`); a larger window is split.
    public var maxBatchBytes = ByteCount(bytes: 1 << 20)
    /// Whether the lines keep their `recv` member (`recv`): by default they go without it.
    public var sendsReceiptTimes = false

    public init() {}

    mutating func read(from section: inout SectionReader) {
        uplink.read(from: &section, defaultPort: nil)
        var gzip = true
        section.read("gzip", .boolean, into: &gzip)
        let named = gzip ? ContentEncodingSetting.gzip : .identity
        if section.accepted("gzip") { contentEncoding = named }
        section.read("content_encoding", .oneOf, into: &contentEncoding)
        section.require(
            "content_encoding",
            !section.accepted("gzip") || contentEncoding == named,
            else: "\"\(contentEncoding.rawValue)\" disagrees with gzip = \(gzip): set content_encoding only"
        )
        section.read("compression_level", .integer(in: 1...19), into: &compressionLevel)
        // A level with no coding named is gzip's, as it was before "auto": a file written then loads as it did.
        if compressionLevel != nil, !section.has("content_encoding"), !section.has("gzip") { contentEncoding = .gzip }
        if let level = compressionLevel, !section.has("content_encoding") || section.accepted("content_encoding") {
            let named = "content_encoding \"\(contentEncoding.rawValue)\""
            switch contentEncoding {
            case .auto:
                section.require(
                    "compression_level",
                    false,
                    else: "\(named) sends zstd at 15 or gzip at 6: name the coding to choose its level"
                )
            case .identity:
                section.require(
                    "compression_level",
                    false,
                    else: section.accepted("content_encoding")
                        ? "\(named) has no level" : "gzip = false sends bodies as they are: no level"
                )
            case .gzip, .zstd:
                let levels = contentEncoding.codings[0].levels
                section.require(
                    "compression_level",
                    levels.contains(level),
                    else: "\(named) takes \(levels.lowerBound) to \(levels.upperBound)"
                )
            }
        }
        section.read(
            "max_batch_bytes",
            .size(in: ByteCount(bytes: 1 << 10)...ByteCount(bytes: 64 << 20)),
            into: &maxBatchBytes
        )
        section.read("recv", .boolean, into: &sendsReceiptTimes)
    }
}

/// `[sinks.owntracks]`: locations and region transitions as OwnTracks messages to an MQTT broker
/// (docs/uplinks.md, "Uplinks").
public struct OwnTracksSinkSettings: Sendable, Equatable {
    public var enabled = false
    /// The broker (`host`, `port`).
    public var host = ""
    public var port = 1883
    /// The board's topic (`topic`): by default `owntracks/USER/DEVICE`, USER the `username` or `waymark`.
    public var topic: String?
    /// The tracker id OwnTracks shows on its map (`tid`): by default the device id's last two characters.
    public var tid: String?
    /// 0, 1 (the default: delivered on the broker's PUBACK) or 2.
    public var qos = 1
    /// Whether location messages are retained, so that a new subscriber sees the board's last position at once.
    public var retain = true
    public var keepAlive: Duration = .seconds(60)
    public var username: String?
    /// A file whose first line is the password (`password_file`): not in the configuration, which many may read.
    public var passwordFile: String?
    /// TLS when `caFile` is set; a client certificate with `certFile` and `keyFile`.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// How long one attempt waits for the broker's acknowledgements (`timeout`).
    public var timeout: Duration = .seconds(30)
    public var retryMin: Duration = .seconds(1)
    public var retryMax: Duration = .seconds(300)
    /// As ``UplinkSettings/maxBytesPerDay``: the payloads and topics of the messages acknowledged.
    public var maxBytesPerDay: ByteCount?
    /// As ``UplinkSettings/start``.
    public var start = SinkStart.oldest
    /// The most messages a second (`drain_rate`): a backlog then reaches the broker no faster than a consumer
    /// behind a broker with its default queue keeps up (``DrainPace``); 0, as fast as the broker acknowledges.
    public var drainRate = 100

    public init() {}

    /// The board's topic for `deviceID`.
    public func topic(deviceID: String) -> String { topic ?? "owntracks/\(username ?? "waymark")/\(deviceID)" }

    /// The tracker id for `deviceID`: by default its last two letters or digits (`bus-7` is `s7`).
    public func tid(deviceID: String) -> String {
        if let tid { return tid }
        let alphanumeric = deviceID.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        return alphanumeric.isEmpty ? "wm" : String(String.UnicodeScalarView(alphanumeric.suffix(2)))
    }

    public var delivery: DeliveryPolicy.Settings { DeliveryPolicy.Settings(retryMin: retryMin, retryMax: retryMax) }

    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("host", .hostName, into: &host)
        section.read("port", .integer(in: 1...65_535), into: &port)
        let topicRule = ValueRule<String>.string(
            "an MQTT topic without wildcards (+, #), such as \"owntracks/fleet/bus-7\""
        ) {
            !$0.isEmpty && $0.utf8.count <= 1024
                && !$0.utf8.contains { [0, UInt8(ascii: "+"), UInt8(ascii: "#")].contains($0) }
        }
        section.read("topic", topicRule, into: &topic)
        let tidRule = ValueRule<String>.string("1 or 2 letters or digits") { tid in
            (1...2).contains(tid.count)
                && tid.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
        section.read("tid", tidRule, into: &tid)
        section.read("qos", .integer(in: 0...2), into: &qos)
        section.read("retain", .boolean, into: &retain)
        section.read("keepalive", .duration(moreThan: .seconds(4), atMost: .seconds(65_535)), into: &keepAlive)
        // It names the default topic too: no MQTT wildcard or level separator in it.
        let userRule = ValueRule<String>.string("a user name without +, # or /") { name in
            !name.isEmpty
                && !name.utf8.contains { [0, UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "/")].contains($0) }
        }
        section.read("username", userRule, into: &username)
        section.read("password_file", .absolutePath, into: &passwordFile)
        section.read("ca_file", .absolutePath, into: &caFile)
        section.read("cert_file", .absolutePath, into: &certFile)
        section.read("key_file", .absolutePath, into: &keyFile)
        section.read("timeout", .duration(moreThan: .zero, atMost: .seconds(600)), into: &timeout)
        section.read("retry_min", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &retryMin)
        section.read("retry_max", .duration(moreThan: .zero, atMost: .seconds(86_400)), into: &retryMax)
        section.requireOrder("retry_min", retryMin, notAbove: "retry_max", retryMax) { $0.configText }
        section.read("max_bytes_per_day", UplinkSettings.dailyBytes, into: &maxBytesPerDay)
        section.read("start", .oneOf, into: &start)
        section.read("drain_rate", .integer(in: 0...100_000), into: &drainRate)
        if enabled && host.isEmpty {
            section.requirePresent("host", because: "an enabled sink needs its broker's host", at: "enabled")
        }
        if (certFile == nil) != (keyFile == nil) {
            section.requirePresent(
                certFile == nil ? "cert_file" : "key_file",
                because: "a client certificate needs both cert_file and key_file",
                at: certFile == nil ? "key_file" : "cert_file"
            )
        }
        if certFile != nil && caFile == nil {
            section.requirePresent(
                "ca_file",
                because: "a client certificate is for TLS, which needs ca_file",
                at: "cert_file"
            )
        }
    }
}
