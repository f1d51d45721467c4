/// A GPX file that could not be read, is not well-formed XML, or is not GPX.
///
/// Its ``description`` names the file and, when known, the line: `route.gpx:57: expected </trkpt>, found </trkseg>`.
public struct GPXError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case unreadable
            case malformedXML
            case notGPX
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The file could not be opened or read.
        public static let unreadable = Code(.unreadable)
        /// The bytes are not well-formed XML.
        public static let malformedXML = Code(.malformedXML)
        /// Well-formed XML whose root element is not `gpx`.
        public static let notGPX = Code(.notGPX)

        public var description: String {
            switch value {
            case .unreadable: "unreadable"
            case .malformedXML: "malformed XML"
            case .notGPX: "not GPX"
            }
        }
    }

    public var code: Code
    /// The path or name of the file, as given to ``GPXFile/parse(_:fileName:routeSpeed:)`` (or to
    /// `GPXFile.read(contentsOf:)` of WaymarkGPSD, which reads the file).
    public var file: String
    /// The 1-based line the problem is on; for something never closed, the line where it was opened.
    public var line: Int?
    /// What is wrong, for a person.
    public var message: String

    public init(code: Code, file: String, line: Int? = nil, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}
