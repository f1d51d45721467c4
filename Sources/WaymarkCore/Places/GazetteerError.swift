/// A gazetteer that cannot be used, or a source that cannot be made into one.
///
/// Its ``description`` names the file and says what is wrong and what to do:
/// `/usr/share/waymark/places.bin: not a Waymark gazetteer (no WMPLACES magic); rebuild it with scripts/build-places.sh`.
public struct GazetteerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case unreadable
            case notAGazetteer
            case unsupportedVersion
            case truncated
            case corrupt
            case malformedSource
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The file cannot be opened or mapped (missing, no permission).
        public static let unreadable = Code(.unreadable)
        /// The file does not start with the gazetteer's magic: some other file.
        public static let notAGazetteer = Code(.notAGazetteer)
        /// A gazetteer of another version of the format.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The file is shorter (or longer) than its header says.
        public static let truncated = Code(.truncated)
        /// The checksum or the structure does not hold: damaged on disk or in the copy.
        public static let corrupt = Code(.corrupt)
        /// A line of the GeoNames source (TSV) that cannot be read.
        public static let malformedSource = Code(.malformedSource)

        public var description: String {
            switch value {
            case .unreadable: "unreadable"
            case .notAGazetteer: "not a gazetteer"
            case .unsupportedVersion: "unsupported version"
            case .truncated: "truncated"
            case .corrupt: "corrupt"
            case .malformedSource: "malformed source"
            }
        }
    }

    public var code: Code
    /// The file (or source) the problem is in.
    public var file: String
    /// What is wrong, for a person.
    public var message: String

    public init(code: Code, file: String, message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}
