/// A gpsd address from the command line: `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`.
public struct GPSDEndpoint: Hashable, Sendable {
    public var host: String
    public var port: Int?

    public init(host: String, port: Int? = nil) {
        self.host = host
        self.port = port
    }

    /// Parses `text`; nil when it is not an address with an optional port from 1 to 65535.
    public init?(_ text: String) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        self.host = String(host)
        if let portText {
            guard let port = Int(portText), (1...65_535).contains(port) else { return nil }
            self.port = port
        }
    }
}
