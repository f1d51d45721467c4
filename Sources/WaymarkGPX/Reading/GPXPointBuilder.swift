import WaymarkCore

/// Collects one `trkpt`, `rtept` or `wpt` and decides whether it becomes a ``Location``.
///
/// ``GPXParser`` hands over the bytes of the `lat` and `lon` attributes and of each field element. The first
/// problem found is the point's rejection reason; a field given twice keeps its first value.
struct GPXPointBuilder {
    /// The children of a point that Waymark reads, by GPX name.
    enum Field: String {
        case time
        case elevation = "ele"
        case hdop
        case vdop
        case fix
        case speed
        case course
    }

    enum Outcome: Hashable {
        case location(Location)
        case rejected(Rejection, reason: String)
    }

    /// gpsd's error model for a receiver without DGPS (`gpsd_error_model` in libgpsd_core.c): the 95 % horizontal
    /// error is HDOP × 15 m and the vertical one VDOP × 23 m, the user-equivalent range errors it assumes. A GPX
    /// point carries only DOPs, so replay estimates its accuracies the way gpsd would live.
    static let horizontalUERE = 15.0
    static let verticalUERE = 23.0

    private enum Bounds {
        case finite
        case nonNegative
        case within(ClosedRange<Double>)
    }

    private var latitude = 0.0
    private var longitude = 0.0
    private var time: Timestamp?
    private var elevation: Double?
    private var hdop: Double?
    private var vdop: Double?
    private var fix: FixMode?
    private var speed: Double?
    private var course: Double?
    private var problem: (code: Rejection, reason: String)?

    /// Starts a point from its attributes; nil for one that is absent.
    init(latitude: ArraySlice<UInt8>?, longitude: ArraySlice<UInt8>?) {
        self.latitude = number(latitude, "lat", .within(-90...90)) ?? 0
        self.longitude = number(longitude, "lon", .within(-180...180)) ?? 0
    }

    /// Reads the text of a field element; ignored once the point has a problem or the field a value.
    mutating func set(_ field: Field, to text: ArraySlice<UInt8>) {
        guard problem == nil else { return }
        switch field {
        case .time:
            guard time == nil else { return }
            let written = String(decoding: GPXValue.trimmed(text), as: UTF8.self)
            // GPX times are UTC; some writers leave out the `Z`.
            guard let value = Timestamp(iso8601: written) ?? Timestamp(iso8601: written + "Z") else {
                problem = (.badTime, "time \(GPXValue.quoted(text)) is not an ISO 8601 date-time")
                return
            }
            time = value
        case .elevation:
            guard elevation == nil else { return }
            elevation = number(text, field.rawValue, .finite)
        case .hdop:
            guard hdop == nil else { return }
            hdop = number(text, field.rawValue, .nonNegative)
        case .vdop:
            guard vdop == nil else { return }
            vdop = number(text, field.rawValue, .nonNegative)
        case .speed:
            guard speed == nil else { return }
            speed = number(text, field.rawValue, .nonNegative)
        case .course:
            guard course == nil else { return }
            course = number(text, field.rawValue, .within(0...360)).map { $0 == 360 ? 0 : $0 }
        case .fix:
            // An empty <fix></fix> says nothing, as common GPX readers take it.
            guard fix == nil, !GPXValue.trimmed(text).isEmpty else { return }
            fix = fixMode(text)
        }
    }

    /// The coordinates of the point, once its `lat` and `lon` are read without a problem.
    var coordinate: Coordinate? {
        problem?.code == .invalidPosition ? nil : Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The location, or why there is none; `timeIfAbsent` times a point without `time` (a planned route
    /// replayed at a constant speed).
    func finish(timeIfAbsent: Timestamp? = nil) -> Outcome {
        if let problem { return .rejected(problem.code, reason: problem.reason) }
        guard let time = time ?? timeIfAbsent else { return .rejected(.noTime, reason: "no time") }
        if fix == .noFix { return .rejected(.noFix, reason: "no fix") }
        let location = Location(
            time: time,
            latitude: latitude,
            longitude: longitude,
            altitudeMSL: elevation,
            horizontalAccuracy: hdop.map { $0 * Self.horizontalUERE },
            verticalAccuracy: vdop.map { $0 * Self.verticalUERE },
            speed: speed,
            course: course,
            mode: fix ?? (elevation == nil ? .twoD : .threeD)
        )
        return .location(location)
    }

    // MARK: - Values

    /// `none`, `2d`, `3d`, `dgps` or `pps` (GPX's `fixType`, any case); nil, with a problem, for anything else.
    private mutating func fixMode(_ text: ArraySlice<UInt8>) -> FixMode? {
        let value = GPXValue.trimmed(text).lazy.map { $0 | 0x20 }
        if value.elementsEqual("none".utf8) { return .noFix }
        if value.elementsEqual("2d".utf8) { return .twoD }
        if value.elementsEqual("3d".utf8) || value.elementsEqual("dgps".utf8) || value.elementsEqual("pps".utf8) {
            return .threeD
        }
        problem = (.badFix, "fix \(GPXValue.quoted(text)) is not none, 2d, 3d, dgps or pps")
        return nil
    }

    /// The number in `text`, if it is one and within `bounds`; else nil, with a problem that names the field.
    private mutating func number(_ text: ArraySlice<UInt8>?, _ name: String, _ bounds: Bounds) -> Double? {
        guard problem == nil else { return nil }
        let code: Rejection = name == "lat" || name == "lon" ? .invalidPosition : .badValue
        guard let text else {
            problem = (code, "no \(name)")
            return nil
        }
        guard let value = GPXValue.decimal(text) else {
            problem = (code, "\(name) \(GPXValue.quoted(text)) is not a number")
            return nil
        }
        switch bounds {
        case .finite:
            return value
        case .nonNegative where value < 0:
            problem = (code, "\(name) \(String(decoding: GPXValue.trimmed(text), as: UTF8.self)) is negative")
            return nil
        case .within(let range) where !range.contains(value):
            let written = String(decoding: GPXValue.trimmed(text), as: UTF8.self)
            problem = (code, "\(name) \(written) is outside \(Int(range.lowerBound))...\(Int(range.upperBound))")
            return nil
        case .nonNegative, .within:
            return value
        }
    }
}
