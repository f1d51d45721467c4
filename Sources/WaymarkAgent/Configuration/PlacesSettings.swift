import WaymarkCore

/// `[places]`: naming positions offline, from the gazetteer of GeoNames' populated places and the operator's
/// sites (regions with a `name`).
public struct PlacesSettings: Sendable, Equatable {
    /// Whether `pause` and `trip` events name their places (`enabled`).
    public var enabled: Bool
    /// The gazetteer file (`file`), as `scripts/build-places.sh` makes it; the Debian package installs it here.
    public var file: String
    /// `max_distance` and `site_radius`.
    public var finder: PlaceSettings

    /// Where the Debian package installs the gazetteer.
    public static let defaultFile = "/usr/share/waymark/places.bin"

    public init(enabled: Bool = true, file: String = PlacesSettings.defaultFile, finder: PlaceSettings = .init()) {
        self.enabled = enabled
        self.file = file
        self.finder = finder
    }
}

extension PlacesSettings {
    /// Reads `[places]`.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        section.read("file", .absolutePath, into: &file)
        section.read("max_distance", .number(in: 1...20_000_000, "metres"), into: &finder.maxDistance)
        section.read("site_radius", .number(in: 0...100_000, "metres"), into: &finder.siteRadius)
    }
}
