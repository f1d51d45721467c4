import WaymarkUplink

/// How the batch sink codes its bodies (`[sinks.http] content_encoding`): one coding, or `auto`.
public enum ContentEncodingSetting: String, CaseIterable, Sendable, Equatable {
    /// zstd, and gzip from the first batch the server refuses in zstd and takes in gzip (the default).
    case auto
    case identity
    case gzip
    case zstd

    /// The codings the sink sends in, the one it starts with first (``BatchTransport``).
    public var codings: [ContentCoding] {
        switch self {
        case .auto: [.zstd, .gzip]
        case .identity: [.identity]
        case .gzip: [.gzip]
        case .zstd: [.zstd]
        }
    }
}
