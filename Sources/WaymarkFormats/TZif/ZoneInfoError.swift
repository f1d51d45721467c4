/// A time zone that cannot be used: its name, what is wrong, and its code.
///
/// Its ``description`` reads `zone Europe/Berlin: truncated: the data block needs 2_307 bytes, 1_024 remain`.
public struct ZoneInfoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem; codes can be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case truncated
            case notTZif
            case unsupportedVersion
            case invalidData
            case invalidFooter
            case invalidName
            case unreadable
        }

        private let kind: Kind

        /// The data ends before what its header counts.
        public static let truncated = Code(kind: .truncated)
        /// The data does not start with the magic `TZif`.
        public static let notTZif = Code(kind: .notTZif)
        /// A TZif version other than 1, 2, 3 or 4.
        public static let unsupportedVersion = Code(kind: .unsupportedVersion)
        /// A count, transition, local time type or designation that RFC 8536 does not allow.
        public static let invalidData = Code(kind: .invalidData)
        /// The footer is not a POSIX TZ string as RFC 8536 extends it.
        public static let invalidFooter = Code(kind: .invalidFooter)
        /// The zone's name is not a relative path of letters, digits, `_`, `+`, `-` (`Europe/Berlin`).
        public static let invalidName = Code(kind: .invalidName)
        /// The zone file cannot be opened or read.
        public static let unreadable = Code(kind: .unreadable)

        public var description: String {
            switch kind {
            case .truncated: "truncated"
            case .notTZif: "not_tzif"
            case .unsupportedVersion: "unsupported_version"
            case .invalidData: "invalid_data"
            case .invalidFooter: "invalid_footer"
            case .invalidName: "invalid_name"
            case .unreadable: "unreadable"
            }
        }
    }

    public var code: Code
    /// The zone's name, `Europe/Berlin`.
    public var zone: String
    /// What is wrong, for a person.
    public var message: String

    public init(_ code: Code, zone: String, _ message: String) {
        self.code = code
        self.zone = zone
        self.message = message
    }

    public var description: String { "zone \(zone): \(message)" }
}
