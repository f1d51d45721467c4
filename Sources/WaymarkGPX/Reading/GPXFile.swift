import WaymarkCore

/// The points of a GPX 1.0 or 1.1 file as locations, for replay (as Xcode simulates locations from GPX).
///
/// Every `trkpt` (in each `trk`/`trkseg`), `rtept` (in each `rte`) and top-level `wpt` becomes a ``Location`` or a
/// ``GPXRejection``, in document order:
/// - `lat` and `lon` (degrees) are required and must be in range; `time` (ISO 8601, UTC when it names no zone) is
///   required, since Waymark replays with the file's times.
/// - `ele` is ``Location/altitudeMSL`` (GPX elevation is above mean sea level).
/// - `hdop` and `vdop` become ``Location/horizontalAccuracy`` (HDOP × 15 m) and ``Location/verticalAccuracy``
///   (VDOP × 23 m), gpsd's own model for a receiver without DGPS.
/// - `fix` `none` rejects the point; `2d` is ``FixMode/twoD``; `3d`, `dgps` and `pps` are ``FixMode/threeD``.
///   Without `fix`, a point with `ele` is 3D and one without is 2D.
/// - `speed` (m/s) and `course` (degrees) come from GPX 1.0's children of the same names, or from Garmin's
///   TrackPointExtension (`gpxtpx:speed`, `gpxtpx:course`) anywhere inside the point's `extensions`.
///
/// Elements match by local name, whatever their namespace prefix. A value that is not a number, or out of range,
/// rejects its point, as does a point outside its container (a `trkpt` that is not in a `trkseg`); neither fails
/// the file.
public struct GPXFile: Hashable, Sendable {
    /// The points that became locations, in document order.
    public var locations: [Location]
    /// The points that did not, with their line and the reason, in document order.
    public var rejected: [GPXRejection]

    public init(locations: [Location] = [], rejected: [GPXRejection] = []) {
        self.locations = locations
        self.rejected = rejected
    }

    /// Parses a GPX document.
    ///
    /// One pass over `bytes`, without Foundation's XML parser: a 10,000-point track of 1 MB takes about 10 ms in a
    /// release build on an x86-64 core.
    ///
    /// - Parameters:
    ///   - bytes: The document, UTF-8 (a byte order mark is skipped).
    ///   - fileName: Names the document in errors: `route.gpx:57: expected </trkpt>, found </trkseg>`.
    ///   - routeSpeed: For a planned route without times: the speed, in metres per second, at which a point
    ///     without `time` is reached from the point before it along the geodesic between them, as navigation
    ///     simulators drive a route. The first point is at ``routeStart``. Nil (the default) rejects such points.
    /// - Throws: ``GPXError`` when the document is not well-formed XML (``GPXError/Code/malformedXML``) or its
    ///   root element is not `gpx` (``GPXError/Code/notGPX``). Unusable points are ``rejected``, not thrown.
    public static func parse(
        _ bytes: [UInt8],
        fileName: String,
        routeSpeed: Double? = nil
    ) throws(GPXError) -> GPXFile {
        precondition(routeSpeed.map { $0 > 0 && $0.isFinite } ?? true, "a route speed must be positive")
        return try GPXParser(bytes, fileName: fileName, routeSpeed: routeSpeed).parse()
    }

    /// The time of the first point of an untimed route replayed at a route speed: 2026-01-01T00:00:00Z, the
    /// same on every run, so that replays of one route compare; recent, so that the magnetic model (WMM2025,
    /// valid 2025 to 2030) gives course headings their declination.
    public static let routeStart = Timestamp(seconds: 1_767_225_600)
}
