import WaymarkCore
import WaymarkGPSD

extension Agent {
    /// Waymark's release.
    public static let release = "0.1.0"

    /// The day this release was made: no event is dated earlier while the clock is unknown (a board without a
    /// real-time clock boots in 1970). Move it with ``release``.
    static let releaseDate = Timestamp(seconds: 1_795_478_400)  // 2026-11-24T00:00:00Z

    /// `waymark --version`: the release and the libgps API it was built against.
    public static var versionDescription: String { "\(release) (libgps API \(LibGPS.apiVersion))" }
}
