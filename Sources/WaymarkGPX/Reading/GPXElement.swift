/// The GPX elements Waymark reads, recognised by local name (`gpxtpx:speed` is ``speed``).
enum GPXElement: String, CaseIterable {
    case gpx
    case trkseg
    case trkpt
    case rte
    case rtept
    case wpt
    case extensions
    case time
    case ele
    case hdop
    case vdop
    case fix
    case speed
    case course
    /// Any other element: metadata, names, links, extension content.
    case other = "*"

    private static let names: [(name: [UInt8], element: GPXElement)] = allCases.filter { $0 != .other }.map {
        (Array($0.rawValue.utf8), $0)
    }

    init(localName: ArraySlice<UInt8>) {
        for entry in Self.names where entry.name.count == localName.count && entry.name.elementsEqual(localName) {
            self = entry.element
            return
        }
        self = .other
    }

    /// For a point, the element it belongs in: `trkpt` in `trkseg`, `rtept` in `rte`, `wpt` in `gpx`.
    var container: GPXElement? {
        switch self {
        case .trkpt: .trkseg
        case .rtept: .rte
        case .wpt: .gpx
        default: nil
        }
    }

    /// The point field this element holds, when it is a child of a point.
    var pointField: GPXPointBuilder.Field? {
        switch self {
        case .time: .time
        case .ele: .elevation
        case .hdop: .hdop
        case .vdop: .vdop
        case .fix: .fix
        case .speed: .speed
        case .course: .course
        default: nil
        }
    }
}
