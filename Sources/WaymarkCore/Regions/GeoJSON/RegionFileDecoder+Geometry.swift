import WaymarkFormats

extension RegionFileDecoder {
    /// The geometry types a region can have.
    enum GeometryType {
        case point
        case polygon
        case multiPolygon
    }

    /// A feature's `geometry`, as read: its type if it is one a region can have, and the shape's coordinates if
    /// they have no problem.
    struct GeometryRead {
        var type: GeometryType?
        var center: Coordinate?
        var polygons: [[[Coordinate]]]?
    }

    private static let regionGeometries = "a region is a Point with a radius, a Polygon or a MultiPolygon"

    mutating func readGeometry(_ reader: inout JSONReader) throws(JSONReaderError) -> GeometryRead {
        var geometry = GeometryRead()
        let position = reader.position
        guard try reader.peek() == .object else {
            report(
                .malformedFeature,
                at: position,
                member: "geometry",
                value: try shown(&reader),
                "must be a geometry object: \(Self.regionGeometries)"
            )
            return geometry
        }
        try reader.beginObject()
        var hasType = false
        var hasCoordinates = false
        var deferred: JSONReader?
        var keys = SeenKeys()
        let index = featureIndex ?? 0
        while let key = try reader.nextKey() {
            if isRepeated(key, in: &keys, of: "the geometry of feature \(index)", at: reader, member: "geometry.\(key)")
            {
                continue
            }
            switch key {
            case "type":
                hasType = true
                geometry.type = try readGeometryType(&reader)
            case "coordinates":
                hasCoordinates = true
                if !hasType {
                    // The type comes later: read the coordinates once it is known, from a copy of the reader here.
                    deferred = reader
                } else if let type = geometry.type {
                    try readCoordinates(&reader, of: type, into: &geometry)
                }
            default:
                continue
            }
        }
        if !hasType {
            report(.unsupportedGeometry, at: position, member: "geometry.type", "missing: \(Self.regionGeometries)")
        }
        guard let type = geometry.type else { return geometry }
        if var deferred {
            try readCoordinates(&deferred, of: type, into: &geometry)
        } else if !hasCoordinates {
            report(.invalidCoordinates, at: position, member: "geometry.coordinates", "missing")
        }
        return geometry
    }

    private mutating func readGeometryType(_ reader: inout JSONReader) throws(JSONReaderError) -> GeometryType? {
        let position = reader.position
        guard try reader.peek() == .string else {
            let value = try shown(&reader)
            report(.unsupportedGeometry, at: position, member: "geometry.type", value: value, "must be a string")
            return nil
        }
        let name = try reader.readString()
        switch name {
        case "Point": return .point
        case "Polygon": return .polygon
        case "MultiPolygon": return .multiPolygon
        case "MultiPoint", "LineString", "MultiLineString", "GeometryCollection":
            let message = "a \(name) is not an area: \(Self.regionGeometries)"
            report(
                .unsupportedGeometry,
                at: position,
                member: "geometry.type",
                value: JSONText.quoted(name),
                message
            )
        default:
            let message = "not a GeoJSON geometry type: \(Self.regionGeometries)"
            report(
                .unsupportedGeometry,
                at: position,
                member: "geometry.type",
                value: JSONText.quoted(name),
                message
            )
        }
        return nil
    }
}
