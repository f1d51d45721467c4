/// A btsnoop capture, or one of its records, that cannot be read.
///
/// Its ``description`` names the file, the byte offset and what is wrong:
/// `drive.btsnoop: byte 16: record 0: its included length 300 runs past the end of the file (40 bytes left)`.
public struct BtsnoopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case notBtsnoop
            case unsupportedVersion
            case unsupportedDatalink
            case truncated
            case malformedRecord
            case cannotRead
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The file is shorter than the 16-byte header, or does not start with the magic `btsnoop\0`.
        public static let notBtsnoop = Code(.notBtsnoop)
        /// A btsnoop version other than 1.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// A datalink other than 1001, 1002 and 2001 (``BtsnoopDatalink``).
        public static let unsupportedDatalink = Code(.unsupportedDatalink)
        /// The file ends inside a record's header or inside its packet: cut short, or not btsnoop after all.
        public static let truncated = Code(.truncated)
        /// A record whose packet is not what it says (an HCI event or advertising report whose lengths overrun
        /// it, a time out of range): the record is skipped and reading goes on.
        public static let malformedRecord = Code(.malformedRecord)
        /// The file cannot be read (no such file, no permission): the system's reason.
        public static let cannotRead = Code(.cannotRead)

        public var description: String {
            switch value {
            case .notBtsnoop: "not btsnoop"
            case .unsupportedVersion: "unsupported version"
            case .unsupportedDatalink: "unsupported datalink"
            case .truncated: "truncated"
            case .malformedRecord: "malformed record"
            case .cannotRead: "cannot read"
            }
        }
    }

    public var code: Code
    /// The capture, as named to ``BtsnoopReader/init(parsing:fileName:)``.
    public var file: String
    /// Where the offending bytes start, from the start of the file.
    public var offset: Int
    /// What is wrong, for a person.
    public var message: String

    public init(code: Code, file: String, offset: Int, message: String) {
        self.code = code
        self.file = file
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(file): byte \(offset): \(message)" }
}
