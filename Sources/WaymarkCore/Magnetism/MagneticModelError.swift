/// A coefficient file (NOAA's `.COF` format) that does not describe a model ``MagneticModel`` can use.
///
/// Its ``description`` names the line and what is wrong with it:
/// `line 14: expected 6 fields "n m g h gdot hdot", found 5: "  4  1     -71.7 ..."`.
public struct MagneticModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case malformedHeader
            case malformedCoefficient
            case unexpectedDegreeOrOrder
            case missingTerminator
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The first line is not `epoch model-name release-date`, or the epoch is not a year.
        public static let malformedHeader = Code(.malformedHeader)
        /// A coefficient line does not hold two integers and four finite numbers.
        public static let malformedCoefficient = Code(.malformedCoefficient)
        /// A coefficient line is out of order or beyond the supported degree: the lines must run
        /// n = 1, 2, ... and m = 0 ... n within each degree, with h = ḣ = 0 for m = 0.
        public static let unexpectedDegreeOrOrder = Code(.unexpectedDegreeOrOrder)
        /// The file ends before its terminator line of `9`s, or before the last order of a degree.
        public static let missingTerminator = Code(.missingTerminator)

        public var description: String {
            switch value {
            case .malformedHeader: "malformed header"
            case .malformedCoefficient: "malformed coefficient"
            case .unexpectedDegreeOrOrder: "unexpected degree or order"
            case .missingTerminator: "missing terminator"
            }
        }
    }

    public var code: Code
    /// The 1-based line the problem is on (for a file that ends too early, the line after the last).
    public var line: Int
    /// What is wrong, for a person.
    public var message: String

    public init(code: Code, line: Int, message: String) {
        self.code = code
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
