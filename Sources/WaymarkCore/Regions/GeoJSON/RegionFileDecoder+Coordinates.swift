import WaymarkFormats

extension RegionFileDecoder {
    /// Reads `geometry.coordinates` as `type` has them into `geometry`, which keeps none if any is wrong.
    mutating func readCoordinates(
        _ reader: inout JSONReader,
        of type: GeometryType,
        into geometry: inout GeometryRead
    ) throws(JSONReaderError) {
        coordinatePath.removeAll(keepingCapacity: true)
        let expected = Self.nesting(of: type)
        if let depth = Self.nestingDepth(at: reader), depth != expected.depth {
            // One problem for the whole, rather than one for each number where a position or ring is expected.
            let position = reader.position
            try reader.skipValue()
            report(
                .invalidCoordinates,
                at: position,
                member: coordinateMember(),
                "nested \(depth) deep, but \(expected.name) coordinates nest \(expected.depth) deep: "
                    + expected.pattern
            )
            return
        }
        switch type {
        case .point:
            geometry.center = try readPosition(&reader)
        case .polygon:
            geometry.polygons = try readPolygon(&reader).map { [$0] }
        case .multiPolygon:
            geometry.polygons = try readMultiPolygon(&reader)
        }
    }

    private static func nesting(of type: GeometryType) -> (name: String, depth: Int, pattern: String) {
        switch type {
        case .point: ("a Point's", 1, "[longitude, latitude]")
        case .polygon: ("a Polygon's", 3, "[[[longitude, latitude], …], …]")
        case .multiPolygon: ("a MultiPolygon's", 4, "[[[[longitude, latitude], …], …], …]")
        }
    }

    /// How deep the arrays at the reader nest down their first elements to a number: 3 for `[[[1, 2]]]`. Nil when
    /// no number ends the chain (`[[]]`, `["x"]`, `5`): the full read reports those, and anything malformed.
    private static func nestingDepth(at reader: JSONReader) -> Int? {
        var depth = 0
        for byte in reader.unreadBytes {
            switch byte {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return depth > 0 ? depth : nil
            default: return nil
            }
        }
        return nil
    }

    /// The path of the value being read: `geometry.coordinates[0][3]`, the `extra` indices last.
    private func coordinateMember(_ extra: Int?...) -> String {
        var member = coordinatePath.reduce(into: "geometry.coordinates") { $0 += "[\($1)]" }
        for case let index? in extra { member += "[\(index)]" }
        return member
    }

    /// Reports the value at the reader, which is not an array (or not a number, as `message` says), and reads it.
    private mutating func reportUnexpected(
        _ reader: inout JSONReader,
        member: String,
        _ message: String
    ) throws(JSONReaderError) {
        let position = reader.position
        let value = try shown(&reader)
        report(.invalidCoordinates, at: position, member: member, value: value, message)
    }

    private mutating func readMultiPolygon(_ reader: inout JSONReader) throws(JSONReaderError) -> [[[Coordinate]]]? {
        let position = reader.position
        guard try reader.peek() == .array else {
            try reportUnexpected(
                &reader,
                member: coordinateMember(),
                "must be an array of polygons, each an array of rings"
            )
            return nil
        }
        try reader.beginArray()
        var polygons: [[[Coordinate]]] = []
        var isValid = true
        while let index = try reader.nextElement() {
            coordinatePath.append(index)
            if let polygon = try readPolygon(&reader) {
                polygons.append(polygon)
            } else {
                isValid = false
            }
            coordinatePath.removeLast()
        }
        if isValid && polygons.isEmpty {
            report(.invalidCoordinates, at: position, member: coordinateMember(), "a MultiPolygon needs a polygon")
            isValid = false
        }
        return isValid ? polygons : nil
    }

    /// An outer ring and its holes.
    private mutating func readPolygon(_ reader: inout JSONReader) throws(JSONReaderError) -> [[Coordinate]]? {
        let position = reader.position
        guard try reader.peek() == .array else {
            try reportUnexpected(
                &reader,
                member: coordinateMember(),
                "must be a polygon: an array of rings, the outer ring first, then its holes"
            )
            return nil
        }
        try reader.beginArray()
        var rings: [[Coordinate]] = []
        var isValid = true
        while let index = try reader.nextElement() {
            coordinatePath.append(index)
            if let ring = try readRing(&reader) {
                rings.append(ring)
            } else {
                isValid = false
            }
            coordinatePath.removeLast()
        }
        if isValid && rings.isEmpty {
            report(.invalidCoordinates, at: position, member: coordinateMember(), "a polygon needs its outer ring")
            isValid = false
        }
        return isValid ? rings : nil
    }

    /// A closed ring of at least 4 positions, the last the same as the first.
    private mutating func readRing(_ reader: inout JSONReader) throws(JSONReaderError) -> [Coordinate]? {
        let position = reader.position
        guard try reader.peek() == .array else {
            try reportUnexpected(
                &reader,
                member: coordinateMember(),
                "must be a ring: an array of at least 4 positions, the last the same as the first"
            )
            return nil
        }
        try reader.beginArray()
        var ring: [Coordinate] = []
        var isValid = true
        while let index = try reader.nextElement() {
            if let coordinate = try readPosition(&reader, index: index) {
                ring.append(coordinate)
            } else {
                isValid = false
            }
        }
        guard isValid else { return nil }
        guard ring.count >= 4 else {
            let message =
                "a ring needs at least 4 positions, the last the same as the first; this one has \(ring.count)"
            report(.invalidCoordinates, at: position, member: coordinateMember(), message)
            return nil
        }
        guard let first = ring.first, let last = ring.last, first == last else {
            let message =
                "the ring is not closed: its last position \(Self.shown(ring[ring.count - 1])) must repeat "
                + "its first \(Self.shown(ring[0]))"
            report(.invalidCoordinates, at: position, member: coordinateMember(), message)
            return nil
        }
        return ring
    }

    /// `[longitude, latitude]` or `[longitude, latitude, altitude]`, the altitude dropped: the element `index` of
    /// a ring, or a Point's coordinates when `index` is nil. It runs for every vertex, so it leaves
    /// ``coordinatePath`` alone and names its own indices only in problems.
    private mutating func readPosition(
        _ reader: inout JSONReader,
        index: Int? = nil
    ) throws(JSONReaderError) -> Coordinate? {
        let position = reader.position
        guard try reader.peek() == .array else {
            try reportUnexpected(&reader, member: coordinateMember(index), "must be a position: [longitude, latitude]")
            return nil
        }
        try reader.beginArray()
        var coordinate = Coordinate(latitude: 0, longitude: 0)
        var count = 0
        var isValid = true
        while let element = try reader.nextElement() {
            count += 1
            guard element < 3 else { continue }
            guard try reader.peek() == .number else {
                try reportUnexpected(&reader, member: coordinateMember(index, element), "must be a number")
                isValid = false
                continue
            }
            let numberPosition = reader.position
            let start = reader.offset
            let value = try reader.readNumber()
            let problem: String? =
                switch element {
                case 0: (-180...180).contains(value) ? nil : "longitude must be within -180...180"
                case 1:
                    (-90...90).contains(value)
                        ? nil : "latitude must be within -90...90 (a GeoJSON position is [longitude, latitude])"
                default: value.isFinite ? nil : "altitude must be a finite number of metres"
                }
            if let problem {
                let member = coordinateMember(index, element)
                report(
                    .invalidCoordinates,
                    at: numberPosition,
                    member: member,
                    value: reader.text(from: start),
                    problem
                )
                isValid = false
            } else if element == 0 {
                coordinate.longitude = value
            } else if element == 1 {
                coordinate.latitude = value
            }
        }
        guard (2...3).contains(count) else {
            let message =
                "a position is [longitude, latitude] or [longitude, latitude, altitude]; this one has "
                + (count == 1 ? "1 element" : "\(count) elements")
            report(.invalidCoordinates, at: position, member: coordinateMember(index), message)
            return nil
        }
        return isValid ? coordinate : nil
    }

    /// `[12.1, 49.02]`, for messages.
    private static func shown(_ coordinate: Coordinate) -> String {
        "[\(JSONText.number(coordinate.longitude)), \(JSONText.number(coordinate.latitude))]"
    }
}
