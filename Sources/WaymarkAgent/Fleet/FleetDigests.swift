import WaymarkCore
import WaymarkFormats

/// The digests a board publishes so that an operator sees at a glance which boards run the same configuration and
/// monitor the same regions (docs/fleet.md, "The digests"): SHA-256 in lower-case hexadecimal of a canonical text.
enum FleetDigests {
    /// The canonical text of the effective configuration: one line `section.key=value` for every key the agent
    /// reads, with the value in effect (the default when the file leaves the key out; a key with no value, such
    /// as an unset `[metrics] textfile`, has no line), sorted by bytes, each ending in a line feed. Values: strings
    /// quoted and escaped as Swift's `debugDescription`, durations as the configuration writes them (`"60s"` and
    /// `"1m"` are one value), integers and booleans as TOML writes them, numbers in their shortest round-trip
    /// form. `[agent] device_id` is left out: it names the board, not its configuration, so boards of one file
    /// share a digest. Comments, key order, spelling and defaults written out change nothing.
    static func canonicalText(of configuration: Configuration) -> String {
        var lines: [String] = []
        for section in Configuration.sections {
            var copy = configuration
            var reader = SectionReader(file: "", section: section.name, table: TOMLTable(), recording: true)
            section.read(&reader, &copy)
            for (key, value) in reader.recorded where !(section.name == "agent" && key == "device_id") {
                lines.append("\(section.name).\(key)=\(value)")
            }
        }
        return lines.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { $0 + "\n" }.joined()
    }

    static func configuration(_ configuration: Configuration) -> String {
        SHA256.hexDigest(Array(canonicalText(of: configuration).utf8))
    }

    /// The canonical text of a monitored region set: one line per region, sorted by id (bytes), each ending in a
    /// line feed: `id|name|entry|exit|` then `circle|LAT,LON|RADIUS`, `polygons|` with each polygon's rings
    /// (`LAT,LON` vertices joined by `;`, rings by `/`, polygons by ` `), each then `|SPEED_LIMIT` (km/h), or
    /// `beacon|CONSTRAINT|RANGING` (`-` for none, numbers in their shortest round-trip form).
    static func canonicalText(regions: [Region], beacons: [BeaconRegion]) -> String {
        func coordinate(_ point: Coordinate) -> String { "\(point.latitude),\(point.longitude)" }
        var lines: [(id: String, line: String)] = []
        for region in regions {
            let head = "\(region.id)|\(region.name ?? "-")|\(region.notifyOnEntry)|\(region.notifyOnExit)|"
            // The speed limit is part of what the board monitors: a changed limit is a changed set.
            let tail = "|" + (region.speedLimitKmh.map { "\($0)" } ?? "-")
            switch region.shape {
            case .circle(let center, let radius):
                lines.append((region.id, head + "circle|\(coordinate(center))|\(radius)" + tail))
            case .polygons(let polygons):
                let text = polygons.map { rings in
                    rings.map { ring in ring.map(coordinate).joined(separator: ";") }.joined(separator: "/")
                }
                lines.append((region.id, head + "polygons|" + text.joined(separator: " ") + tail))
            }
        }
        for beacon in beacons {
            let ranging = beacon.ranging.map { "\($0)" } ?? "-"
            lines.append(
                (
                    beacon.id,
                    "\(beacon.id)|\(beacon.name ?? "-")|\(beacon.notifyOnEntry)|\(beacon.notifyOnExit)|beacon|"
                        + "\(beacon.constraint)|\(ranging)"
                )
            )
        }
        return lines.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.map { $0.line + "\n" }.joined()
    }

    static func regions(_ regions: [Region], beacons: [BeaconRegion]) -> String {
        SHA256.hexDigest(Array(canonicalText(regions: regions, beacons: beacons).utf8))
    }
}
