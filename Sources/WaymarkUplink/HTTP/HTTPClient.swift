import CUplink
import Synchronization

/// HTTP(S) requests to one server through libcurl, on a connection kept alive between them. Blocking: a network
/// sink calls it from a thread of its own, never from the cooperative pool.
///
/// Certificates are verified (against the system's store, or `caFile`); redirects are not followed (a moved
/// endpoint is a configuration to fix, not a place to send a fleet's positions unasked). libcurl and zlib are
/// loaded at the first client (``CUplink``'s shim), so a board without uplinks never maps them.
public final class HTTPClient {
    public struct Settings: Hashable, Sendable {
        /// The longest a whole request may take, connection included.
        public var timeout: Duration
        /// The longest the connection (TCP and TLS) may take.
        public var connectTimeout: Duration
        /// The certificate authorities to verify the server against instead of the system's (PEM).
        public var caFile: String?

        public init(timeout: Duration = .seconds(30), connectTimeout: Duration? = nil, caFile: String? = nil) {
            self.timeout = timeout
            self.connectTimeout = min(connectTimeout ?? .seconds(10), timeout)
            self.caFile = caFile
        }
    }

    /// What the server answered.
    public struct Response: Hashable, Sendable {
        public var status: Int
        /// The start of the body (at most ``bodyLimit`` bytes), for the logs and the quarantine.
        public var body: String
        /// The `Retry-After` header, when there was one.
        public var retryAfter: String?
        /// Bytes on the wire, request and response, headers included (TLS not counted).
        public var sentBytes: Int
        public var receivedBytes: Int
    }

    /// The most of a response's body kept.
    public static let bodyLimit = 1024

    public let settings: Settings
    private let handle: UnsafeMutableRawPointer
    /// Set by ``cancel()`` from any thread; the transfer's progress callback reads it.
    private let cancelled = Atomic<Bool>(false)
    private var body: [UInt8] = []
    private var retryAfter: String?

    /// - Throws: ``UplinkFailure`` when libcurl cannot be loaded or started.
    public init(settings: Settings) throws(UplinkFailure) {
        if let failure = waymark_uplink_library_open() {
            throw UplinkFailure(code: -1, message: String(cString: failure), cancelled: false)
        }
        guard let handle = waymark_curl_init() else {
            throw UplinkFailure(code: -1, message: "curl_easy_init failed", cancelled: false)
        }
        self.handle = handle
        self.settings = settings
        configure()
    }

    deinit { waymark_curl_cleanup(handle) }

    /// Stops the transfer under way, within about a second, and every later one: the agent is stopping.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Sends one request and waits for its answer: `POST` with `body`, or `GET` when `body` is nil.
    public func send(url: String, headers: [String] = [], body: [UInt8]?) -> Result<Response, UplinkFailure> {
        guard !cancelled.load(ordering: .relaxed) else {
            return .failure(
                UplinkFailure(code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "stopped", cancelled: true)
            )
        }
        self.body.removeAll(keepingCapacity: true)
        retryAfter = nil
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = waymark_curl_list_append(list, header) }
        defer { waymark_curl_list_free(list) }
        // Without `Expect: 100-continue`: one round trip less for a body over 1 KB.
        list = waymark_curl_list_append(list, "Expect:")
        _ = waymark_curl_set_headers(handle, list)
        _ = waymark_curl_set_string(handle, CURLOPT_URL, url)
        let code: CURLcode
        if let body {
            _ = waymark_curl_set_long(handle, CURLOPT_POST, 1)
            code = body.withUnsafeBytes { bytes in
                // An empty body still needs an address.
                withUnsafePointer(to: 0) { empty in
                    _ = waymark_curl_set_body(handle, bytes.baseAddress ?? UnsafeRawPointer(empty), bytes.count)
                    return waymark_curl_perform(handle)
                }
            }
        } else {
            _ = waymark_curl_set_long(handle, CURLOPT_HTTPGET, 1)
            code = waymark_curl_perform(handle)
        }
        var sent = 0
        var received = 0
        waymark_curl_wire_bytes(handle, &sent, &received)
        guard code == CURLE_OK else {
            let cancelled = code == CURLE_ABORTED_BY_CALLBACK
            return .failure(
                UplinkFailure(
                    code: Int(code.rawValue),
                    message: cancelled ? "stopped" : String(cString: waymark_curl_strerror(code)),
                    cancelled: cancelled,
                    wireBytes: sent + received
                )
            )
        }
        return .success(
            Response(
                status: waymark_curl_status(handle),
                body: String(decoding: self.body, as: UTF8.self),
                retryAfter: retryAfter,
                sentBytes: sent,
                receivedBytes: received
            )
        )
    }

    private func configure() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = waymark_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = waymark_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout))
        _ = waymark_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        _ = waymark_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        // No TCP keepalive: its probes went every 60 s on the connection libcurl keeps idle between requests (a
        // pair of 52-byte packets, and the modem awake, a minute: some 100 KB a day parked), which libcurl does not
        // reuse past 118 s idle anyway; a request on a dead connection ends at `timeout`.
        _ = waymark_curl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 0)
        _ = waymark_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = waymark_curl_set_string(handle, CURLOPT_USERAGENT, "waymark")
        if let caFile = settings.caFile { _ = waymark_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        _ = waymark_curl_set_receiver(handle, CURLOPT_WRITEFUNCTION) { bytes, size, count, context in
            guard let bytes, let context else { return 0 }
            let client = Unmanaged<HTTPClient>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let room = max(0, HTTPClient.bodyLimit - client.body.count)
            client.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: min(length, room)))
            return length
        }
        _ = waymark_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = waymark_curl_set_receiver(handle, CURLOPT_HEADERFUNCTION) { bytes, size, count, context in
            guard let bytes, let context else { return 0 }
            let client = Unmanaged<HTTPClient>.fromOpaque(context).takeUnretainedValue()
            let line = UnsafeRawBufferPointer(start: bytes, count: size * count)
            if let value = HTTPClient.value(of: "retry-after", in: line) { client.retryAfter = value }
            return size * count
        }
        _ = waymark_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = waymark_curl_set_progress(
            handle,
            { context, _, _, _, _ in
                guard let context else { return 0 }
                let client = Unmanaged<HTTPClient>.fromOpaque(context).takeUnretainedValue()
                return client.cancelled.load(ordering: .relaxed) ? 1 : 0
            },
            context
        )
    }

    /// The value of header `name` (lower case) in one header `line`, without its spaces and line end.
    static func value(of name: String, in line: UnsafeRawBufferPointer) -> String? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon == name.utf8.count else { return nil }
        let lowered = line[..<colon].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard lowered.elementsEqual(name.utf8) else { return nil }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        let value = line[(colon + 1)...].drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        return String(decoding: value, as: UTF8.self)
    }

    /// Whole milliseconds, rounded up: libcurl reads 0 as no limit, and a timeout under 1 ms must still end.
    private static func milliseconds(_ duration: Duration) -> Int {
        let (whole, rest) = duration.components.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000)
        return Int(duration.components.seconds) * 1000 + Int(whole) + (rest > 0 ? 1 : 0)
    }
}
