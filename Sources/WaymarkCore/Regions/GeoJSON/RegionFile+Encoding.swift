import WaymarkFormats

extension RegionFile {
    /// The text of a region file holding `regions`, in their order: a GeoJSON FeatureCollection, UTF-8.
    ///
    /// The text of ``encode(entries:)`` for `regions.map { .geographic($0) }`: a file without beacon regions.
    public static func encode(_ regions: [Region]) -> [UInt8] {
        encode(entries: regions.map { .geographic($0) })
    }

    /// The text of a region file holding `entries`, geographic and beacon regions, in their order: a GeoJSON
    /// FeatureCollection, UTF-8.
    ///
    /// One feature per line, so that a problem's line names its feature and a diff its region; keys in a fixed
    /// order (`type`, `properties` with `id`, `name`, `notify_on_entry`, `notify_on_exit`, `speed_limit` when set,
    /// then `radius`, or `beacon` and `ranging`, then `geometry`); both flags always written, `ranging` only when
    /// set; numbers in the shortest form that reads back as the same `Double`. A circle is a Point with a
    /// `radius`; one polygon a Polygon, several a MultiPolygon; a beacon region has `"geometry": null` and a `beacon`
    /// object of `uuid` (upper case), and `major` and `minor` when set.
    ///
    /// For regions ``init(parsing:fileName:)`` accepts, parsing the text gives them back, equal. Others are written
    /// as given (an infinity or NaN as `null`), so that parsing the text reports them rather than this hiding them.
    public static func encode(entries: [Entry]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 200)
        text.append(contentsOf: "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [".utf8)
        for (offset, entry) in entries.enumerated() {
            text.append(contentsOf: (offset == 0 ? "\n    " : ",\n    ").utf8)
            switch entry {
            case .geographic(let region): appendFeature(region, to: &text)
            case .beacon(let region): appendFeature(region, to: &text)
            }
        }
        text.append(contentsOf: (entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        return text
    }

    private static func appendFeature(_ region: BeaconRegion, to text: inout [UInt8]) {
        appendProperties(
            id: region.id,
            name: region.name,
            entry: region.notifyOnEntry,
            exit: region.notifyOnExit,
            to: &text
        )
        text.append(contentsOf: ", \"beacon\": {\"uuid\": \"\(region.constraint.uuid)\"".utf8)
        if let major = region.constraint.major { text.append(contentsOf: ", \"major\": \(major)".utf8) }
        if let minor = region.constraint.minor { text.append(contentsOf: ", \"minor\": \(minor)".utf8) }
        text.append(UInt8(ascii: "}"))
        if let ranging = region.ranging { text.append(contentsOf: ", \"ranging\": \(ranging)".utf8) }
        text.append(contentsOf: "}, \"geometry\": null}".utf8)
    }

    /// `{"type": "Feature", "properties": {` and the properties every region has, the object left open.
    private static func appendProperties(
        id: String,
        name: String?,
        entry: Bool,
        exit: Bool,
        to text: inout [UInt8]
    ) {
        text.append(contentsOf: "{\"type\": \"Feature\", \"properties\": {\"id\": ".utf8)
        JSONText.appendQuoted(id, to: &text)
        if let name {
            text.append(contentsOf: ", \"name\": ".utf8)
            JSONText.appendQuoted(name, to: &text)
        }
        text.append(contentsOf: ", \"notify_on_entry\": \(entry)".utf8)
        text.append(contentsOf: ", \"notify_on_exit\": \(exit)".utf8)
    }

    private static func appendFeature(_ region: Region, to text: inout [UInt8]) {
        appendProperties(
            id: region.id,
            name: region.name,
            entry: region.notifyOnEntry,
            exit: region.notifyOnExit,
            to: &text
        )
        if let limit = region.speedLimitKmh {
            text.append(contentsOf: ", \"speed_limit\": ".utf8)
            JSONText.appendNumber(limit, to: &text)
        }
        switch region.shape {
        case .circle(let center, let radius):
            text.append(contentsOf: ", \"radius\": ".utf8)
            JSONText.appendNumber(radius, to: &text)
            text.append(contentsOf: "}, \"geometry\": {\"type\": \"Point\", \"coordinates\": ".utf8)
            appendPosition(center, to: &text)
        case .polygons(let polygons) where polygons.count == 1:
            text.append(contentsOf: "}, \"geometry\": {\"type\": \"Polygon\", \"coordinates\": ".utf8)
            appendList(polygons[0], to: &text) { ring, text in appendList(ring, to: &text, appendPosition) }
        case .polygons(let polygons):
            text.append(contentsOf: "}, \"geometry\": {\"type\": \"MultiPolygon\", \"coordinates\": ".utf8)
            appendList(polygons, to: &text) { rings, text in
                appendList(rings, to: &text) { ring, text in appendList(ring, to: &text, appendPosition) }
            }
        }
        text.append(contentsOf: "}}".utf8)
    }

    /// `[a, b, c]`, each element written by `appendElement`.
    private static func appendList<Element>(
        _ elements: [Element],
        to text: inout [UInt8],
        _ appendElement: (Element, inout [UInt8]) -> Void
    ) {
        text.append(UInt8(ascii: "["))
        for (offset, element) in elements.enumerated() {
            if offset > 0 { text.append(contentsOf: ", ".utf8) }
            appendElement(element, &text)
        }
        text.append(UInt8(ascii: "]"))
    }

    private static func appendPosition(_ coordinate: Coordinate, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "["))
        JSONText.appendNumber(coordinate.longitude, to: &text)
        text.append(contentsOf: ", ".utf8)
        JSONText.appendNumber(coordinate.latitude, to: &text)
        text.append(UInt8(ascii: "]"))
    }
}
