/// Why a region's shape cannot be monitored: its ``message`` says what is wrong and what is allowed, and
/// ``path`` where in the shape's coordinates.
///
/// `polygon 1, ring 2 (hole 1): 3 positions: a ring needs at least 4, the first repeated as the last`.
public struct RegionGeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; more codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case invalidCoordinate
            case invalidRadius
            case malformedRing
            case emptyShape
            case tooLarge
            case selfIntersecting
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// A latitude or longitude that is not finite, a latitude beyond ±90° or a longitude beyond ±180°.
        public static let invalidCoordinate = Code(.invalidCoordinate)
        /// A circle's radius that is not a finite number of metres above 0.
        public static let invalidRadius = Code(.invalidRadius)
        /// A ring with fewer than 4 positions, or whose last position is not its first.
        public static let malformedRing = Code(.malformedRing)
        /// No polygon, or a polygon without rings.
        public static let emptyShape = Code(.emptyShape)
        /// A polygon reaching farther than ``PreparedRegion/maximumPolygonSize`` from its reference point.
        public static let tooLarge = Code(.tooLarge)
        /// A ring two of whose edges cross (a "bow-tie"): which side is inside would be a guess.
        public static let selfIntersecting = Code(.selfIntersecting)

        public var description: String {
            switch value {
            case .invalidCoordinate: "invalid coordinate"
            case .invalidRadius: "invalid radius"
            case .malformedRing: "malformed ring"
            case .emptyShape: "empty shape"
            case .tooLarge: "too large"
            case .selfIntersecting: "self-intersecting ring"
            }
        }
    }

    public var code: Code
    /// 0-based indices into the polygons' coordinates (polygon, ring, position), as long as the problem
    /// needs: `[0, 2, 5]` for a position, `[0, 2]` for a ring, `[]` for a circle or the shape as a whole.
    /// A GeoJSON Polygon's own path leaves out the first index.
    public var path: [Int]
    /// What is wrong and what is allowed, for a person, starting with where (1-based, in words).
    public var message: String

    public init(code: Code, path: [Int] = [], message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { message }
}

extension RegionGeometryError {
    /// Where `path` points, in words: `polygon 1, ring 2 (hole 1), position 6`.
    static func place(_ path: [Int]) -> String {
        var words: [String] = []
        if let polygon = path.first { words.append("polygon \(polygon + 1)") }
        if path.count > 1 {
            let ring = path[1]
            words.append(ring == 0 ? "ring 1 (outer)" : "ring \(ring + 1) (hole \(ring))")
        }
        if path.count > 2 { words.append("position \(path[2] + 1)") }
        return words.joined(separator: ", ")
    }
}
