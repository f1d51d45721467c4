/// Why a region file was not read or not changed: ``problems`` lists what is wrong, one line each (a file's
/// problems, with line, column and feature index), and ``message`` sums it up in one line that names the file.
///
/// `/etc/waymark/regions.geojson: no region "depot-9"; nothing removed`.
public struct RegionEditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case malformedFile
            case invalidInput
            case unknownID
            case cannotRead
            case cannotWrite
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The region file, or the saved states, cannot be used as they are: ``problems`` says why.
        public static let malformedFile = Code(.malformedFile)
        /// What was to be added or imported is not a region file, or not a region.
        public static let invalidInput = Code(.invalidInput)
        /// An id that no region of the file has.
        public static let unknownID = Code(.unknownID)
        /// A file exists but cannot be read (permissions, a directory in its place).
        public static let cannotRead = Code(.cannotRead)
        /// The region file cannot be written; it is left as it was.
        public static let cannotWrite = Code(.cannotWrite)

        public var description: String {
            switch value {
            case .malformedFile: "malformed file"
            case .invalidInput: "invalid input"
            case .unknownID: "unknown id"
            case .cannotRead: "cannot read"
            case .cannotWrite: "cannot write"
            }
        }
    }

    public var code: Code
    /// One line per problem, in the order of the file; may be empty.
    public var problems: [String]
    /// What happened, to which file, and what became of it.
    public var message: String

    public init(code: Code, problems: [String] = [], message: String) {
        self.code = code
        self.problems = problems
        self.message = message
    }

    /// Whether the failure is the system's (a file that cannot be read or written) rather than the input's.
    public var isInputOutputFailure: Bool { code == .cannotRead || code == .cannotWrite }

    /// The problems, then the message, one per line.
    public var description: String { (problems + [message]).joined(separator: "\n") }
}
