import WaymarkFormats

/// One problem in a region file, which its ``description`` tells in one line:
/// `regions.geojson:14:9: features[12] (id "depot-3"): properties.radius = -5: must be a positive number of metres`.
public struct RegionFileProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case malformedJSON
            case notFeatureCollection
            case malformedFeature
            case missingID
            case invalidID
            case duplicateID
            case duplicateKey
            case invalidProperty
            case unsupportedGeometry
            case invalidCoordinates
            case invalidRadius
            case invalidBeacon
            case tooManyProblems
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The bytes are not JSON (RFC 8259), or go beyond the reader's ``JSONLimits``; nothing after the problem
        /// was read.
        public static let malformedJSON = Code(.malformedJSON)
        /// The top level is not an object with `"type": "FeatureCollection"` and a `features` array.
        public static let notFeatureCollection = Code(.notFeatureCollection)
        /// An element of `features` is not an object with `"type": "Feature"`, or its `properties` or `geometry`
        /// is missing or of the wrong kind.
        public static let malformedFeature = Code(.malformedFeature)
        /// A feature has no id, or an empty one.
        public static let missingID = Code(.missingID)
        /// An id that is neither a string nor an integer, or a Feature `id` that differs from `properties.id`.
        public static let invalidID = Code(.invalidID)
        /// A feature has the id of an earlier feature.
        public static let duplicateID = Code(.duplicateID)
        /// A key given twice in one object of the file: which of the two was meant is not for the reader to
        /// guess, so the feature (or, outside the features, the file) is refused.
        public static let duplicateKey = Code(.duplicateKey)
        /// `name` is not a string, or `notify_on_entry` or `notify_on_exit` not a boolean.
        public static let invalidProperty = Code(.invalidProperty)
        /// A geometry other than Point, Polygon and MultiPolygon, or one without a type.
        public static let unsupportedGeometry = Code(.unsupportedGeometry)
        /// Coordinates that are missing, not numbers, out of range, nested wrongly, or a ring that has fewer
        /// than 4 positions or is not closed.
        public static let invalidCoordinates = Code(.invalidCoordinates)
        /// A Point without a positive, finite `radius`, or a polygon with one.
        public static let invalidRadius = Code(.invalidRadius)
        /// A beacon region's `beacon` that is not an object of a `uuid` (8-4-4-4-12 hexadecimal digits) and
        /// optionally a `major`, then a `minor`, each an integer from 0 to 65535; a `beacon` with a geometry; a
        /// `geometry` of `null` without a `beacon`; or a `ranging` outside a beacon region.
        public static let invalidBeacon = Code(.invalidBeacon)
        /// Problems beyond those listed: for a feature, more than ``RegionFile/maximumProblemsPerFeature``; for
        /// the file, more than ``RegionFile/maximumProblems``, after which no more features were checked.
        public static let tooManyProblems = Code(.tooManyProblems)

        public var description: String {
            switch value {
            case .malformedJSON: "malformed JSON"
            case .notFeatureCollection: "not a FeatureCollection"
            case .malformedFeature: "malformed feature"
            case .missingID: "missing id"
            case .invalidID: "invalid id"
            case .duplicateID: "duplicate id"
            case .duplicateKey: "duplicate key"
            case .invalidProperty: "invalid property"
            case .unsupportedGeometry: "unsupported geometry"
            case .invalidCoordinates: "invalid coordinates"
            case .invalidRadius: "invalid radius"
            case .invalidBeacon: "invalid beacon"
            case .tooManyProblems: "too many problems"
            }
        }
    }

    public var code: Code
    /// The file name, as given to ``RegionFile/init(parsing:fileName:)``.
    public var file: String
    /// Where the offending value starts; for something missing, where the object that lacks it opens.
    public var position: TextPosition
    /// The 0-based index in `features` of the feature with the problem; nil for a problem of the whole file
    /// that lies outside every feature.
    public var featureIndex: Int?
    /// The id of that feature, when it has one.
    public var featureID: String?
    /// The member with the problem, as a path from the feature: `properties.radius`, `geometry.coordinates[0][3]`.
    public var member: String?
    /// The offending value: written as JSON (`-5`, `"yes"`) if it is a number, string, boolean or null, else
    /// `an array` or `an object`.
    public var value: String?
    /// What is wrong and what is allowed: `must be a positive number of metres`.
    public var message: String

    public init(
        code: Code,
        file: String,
        position: TextPosition,
        featureIndex: Int? = nil,
        featureID: String? = nil,
        member: String? = nil,
        value: String? = nil,
        message: String
    ) {
        self.code = code
        self.file = file
        self.position = position
        self.featureIndex = featureIndex
        self.featureID = featureID
        self.member = member
        self.value = value
        self.message = message
    }

    /// `FILE:LINE:COLUMN: features[INDEX] (id "ID"): MEMBER = VALUE: MESSAGE`, leaving out the parts the problem
    /// does not have; a value longer than 60 characters is shortened.
    public var description: String {
        var parts = ["\(file):\(position)"]
        if let featureIndex {
            parts.append("features[\(featureIndex)]" + (featureID.map { " (id \(JSONText.quoted($0)))" } ?? ""))
        }
        var subject = member ?? ""
        if let value {
            let shown = value.count > 60 ? value.prefix(57) + "..." : value
            subject += subject.isEmpty ? shown : " = " + shown
        }
        if !subject.isEmpty { parts.append(subject) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
