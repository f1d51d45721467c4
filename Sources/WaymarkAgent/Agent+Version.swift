import WaymarkGPSD

extension Agent {
    /// Waymark's release.
    public static let release = "0.1.0"

    /// `waymark --version`: the release and the libgps API it was built against.
    public static var versionDescription: String { "\(release) (libgps API \(LibGPS.apiVersion))" }
}
