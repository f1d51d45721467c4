import WaymarkCore
import WaymarkSystem

/// `[places]`: naming positions offline, from the gazetteer of GeoNames' populated places and the operator's
/// sites (regions with a `name`).
public struct PlacesSettings: Sendable, Equatable {
    /// Whether `pause` and `trip` events name their places (`enabled`).
    public var enabled: Bool
    /// The gazetteer file (`file`), as `scripts/build-places.sh` makes it; the Debian package installs it here.
    public var file: String
    /// The address file (`addresses`), as `waymark places build-addresses` makes it; by default where the
    /// `waymark-addresses` package installs one, and that file not installed means no addresses, quietly.
    public var addresses: String?
    /// `max_distance`, `site_radius`, `address_radius` and `street_radius`.
    public var finder: PlaceSettings

    /// Where the Debian package installs the gazetteer.
    public static let defaultFile = "/usr/share/waymark/places.bin"

    /// Where a package that ships an address file installs it.
    public static let packagedAddresses = "/usr/share/waymark/addresses.bin"

    public init(
        enabled: Bool = true,
        file: String = PlacesSettings.defaultFile,
        addresses: String? = PlacesSettings.packagedAddresses,
        finder: PlaceSettings = .init()
    ) {
        self.enabled = enabled
        self.file = file
        self.addresses = addresses
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
        // "" switches off the packaged file, installed or not.
        section.read("addresses", .absolutePathOrNone, into: &addresses)
        if addresses == "" { addresses = nil }
        section.read("address_radius", .number(in: 0...1_000, "metres"), into: &finder.addressRadius)
        section.read("street_radius", .number(in: 0...1_000, "metres"), into: &finder.streetRadius)
    }
}

extension PlacesSettings {
    /// The address file to open: nil when there is none to open, or when it is the default one and the
    /// optional `waymark-addresses` package is not installed (not a problem, so no warning).
    public var addressFileToOpen: String? {
        guard let addresses else { return nil }
        return addresses == Self.packagedAddresses && Files.size(addresses) == nil ? nil : addresses
    }
}
