import WaymarkCore
import WaymarkFormats

/// Reads a GPX document token by token into a ``GPXFile``.
///
/// Points are `trkpt` in a `trkseg`, `rtept` in a `rte` and `wpt` in the root `gpx`, in document order. Inside a
/// point, `time`, `ele`, `hdop`, `vdop`, `fix`, `speed` and `course` are read from its direct children, and `speed`
/// and `course` also at any depth inside its `extensions` (Garmin's TrackPointExtension v2). Everything else,
/// including metadata and extension content elsewhere, is skipped.
struct GPXParser {
    private let fileName: String
    private var tokenizer: XMLTokenizer
    /// The open elements, the root first.
    private var path: [GPXElement] = []
    /// Depth of the outermost open `extensions`.
    private var extensionsDepth: Int?
    private var point: GPXPointBuilder?
    private var pointDepth = 0
    /// Offset of the open point's start tag; its line is counted only if the point is rejected.
    private var pointStart = 0
    /// The point field whose text is being collected into `text`, and its depth.
    private var field: (field: GPXPointBuilder.Field, depth: Int)?
    private var text: [UInt8] = []
    private var latitude: [UInt8] = []
    private var longitude: [UInt8] = []
    private var file = GPXFile()
    /// The speed, in metres per second, at which points without `time` are timed; nil to reject them.
    private let routeSpeed: Double?
    /// Where and when the last point that became a location was.
    private var lastTimed: (coordinate: Coordinate, time: Timestamp)?

    init(_ bytes: [UInt8], fileName: String, routeSpeed: Double? = nil) throws(GPXError) {
        self.fileName = fileName
        self.routeSpeed = routeSpeed
        do {
            self.tokenizer = try XMLTokenizer(bytes)
        } catch {
            throw GPXError(code: .malformedXML, file: fileName, line: error.line, message: error.message)
        }
    }

    /// Reads the whole document.
    ///
    /// - Throws: ``GPXError`` when the document is not well-formed XML or its root element is not `gpx`.
    consuming func parse() throws(GPXError) -> GPXFile {
        while let token = try nextToken() {
            switch token {
            case .startTag(let name):
                try start(GPXElement(localName: tokenizer.bytes[name.local]), name: name)
            case .endTag:
                end()
            case .text(let range):
                if let field, field.depth == path.count { tokenizer.appendDecoded(range, to: &text) }
            case .cdata(let range):
                if let field, field.depth == path.count { text.append(contentsOf: tokenizer.bytes[range]) }
            }
        }
        return file
    }

    private mutating func nextToken() throws(GPXError) -> XMLToken? {
        do {
            return try tokenizer.next()
        } catch {
            throw GPXError(code: .malformedXML, file: fileName, line: error.line, message: error.message)
        }
    }

    private mutating func start(_ element: GPXElement, name: XMLName) throws(GPXError) {
        let parent = path.last
        path.append(element)
        let depth = path.count
        if depth == 1 && element != .gpx {
            throw GPXError(
                code: .notGPX,
                file: fileName,
                line: tokenizer.line(at: tokenizer.tokenStart),
                message: "the root element is <\(tokenizer.string(name))>, not <gpx>: this is not a GPX file"
            )
        }
        if element == .extensions && extensionsDepth == nil {
            extensionsDepth = depth
        }
        if point != nil {
            startField(element.pointField, depth: depth)
            return
        }
        guard extensionsDepth == nil, let container = element.container else { return }
        guard parent == container else {
            let reason = "<\(tokenizer.string(name))> outside <\(container.rawValue)>"
            let line = tokenizer.line(at: tokenizer.tokenStart)
            file.rejected.append(GPXRejection(line: line, code: .misplacedPoint, reason: reason))
            return
        }
        pointStart = tokenizer.tokenStart
        startPoint(depth: depth)
    }

    private mutating func startPoint(depth: Int) {
        var hasLatitude = false
        var hasLongitude = false
        latitude.removeAll(keepingCapacity: true)
        longitude.removeAll(keepingCapacity: true)
        for attribute in tokenizer.attributes {
            let name = tokenizer.bytes[attribute.name.qualified]
            if name.elementsEqual("lat".utf8) {
                hasLatitude = true
                tokenizer.appendDecoded(attribute.value, to: &latitude)
            } else if name.elementsEqual("lon".utf8) {
                hasLongitude = true
                tokenizer.appendDecoded(attribute.value, to: &longitude)
            }
        }
        point = GPXPointBuilder(
            latitude: hasLatitude ? latitude[...] : nil,
            longitude: hasLongitude ? longitude[...] : nil
        )
        pointDepth = depth
    }

    /// Starts collecting text for a point's direct child, or for `speed` and `course` inside its extensions.
    private mutating func startField(_ pointField: GPXPointBuilder.Field?, depth: Int) {
        guard field == nil, let pointField else { return }
        let isChild = depth == pointDepth + 1
        let isExtension = extensionsDepth != nil && (pointField == .speed || pointField == .course)
        guard isChild || isExtension else { return }
        field = (pointField, depth)
        text.removeAll(keepingCapacity: true)
    }

    /// The time of a point at `coordinate` that has none, when a route speed is given: the time of the point
    /// before it plus the geodesic distance between them at that speed; the first at ``GPXFile/routeStart``.
    private func routeTime(to coordinate: Coordinate?) -> Timestamp? {
        guard let routeSpeed, let coordinate else { return nil }
        guard let lastTimed else { return GPXFile.routeStart }
        let seconds = Geodesic.distance(from: lastTimed.coordinate, to: coordinate) / routeSpeed
        return lastTimed.time.advanced(by: .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    private mutating func end() {
        let depth = path.count
        if let field, field.depth == depth {
            point?.set(field.field, to: text[...])
            self.field = nil
        }
        if depth == pointDepth, let point {
            switch point.finish(timeIfAbsent: routeTime(to: point.coordinate)) {
            case .location(let location):
                file.locations.append(location)
                lastTimed = (location.coordinate, location.time)
            case .rejected(let code, let reason):
                file.rejected.append(GPXRejection(line: tokenizer.line(at: pointStart), code: code, reason: reason))
            }
            self.point = nil
            pointDepth = 0
        }
        if depth == extensionsDepth {
            extensionsDepth = nil
        }
        path.removeLast()
    }
}
