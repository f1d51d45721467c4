import WaymarkCore
import WaymarkFormats

/// OwnTracks' waypoints and Waymark's region documents, both ways (docs/fleet.md, "Waypoints"): a `setWaypoints`
/// carries an OwnTracks `{"_type": "waypoints", "waypoints": [...]}` object (or its bare array), or a GeoJSON
/// region document, told apart by content; either becomes the GeoJSON text of a region file, which the board then
/// checks exactly as `waymark regions import` does (``RegionInput``, ``RegionFileEditor``).
///
/// A waypoint `{"_type": "waypoint", "desc", "lat", "lon", "rad", "tst", "rid"}` is a circle: its id `rid`
/// (else `tst` as text, else `desc`), its name `desc`, its center `lat`, `lon`, its radius `rad` metres. With
/// `uuid` (and `major`, `minor`) it is a beacon region instead.
enum FleetWaypoints {
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The GeoJSON text of the region set `value` describes.
    static func regionText(of value: JSONValue) -> Result<[UInt8], Problem> {
        let entries: [JSONValue]
        switch value {
        case .array(let elements):
            entries = elements
        case .object:
            if let type = value["type"]?.string, type == "FeatureCollection" || type == "Feature" {
                return .success(Array(value.text.utf8))
            }
            guard value["_type"]?.string == "waypoints" else {
                return .failure(
                    Problem(
                        message: "waypoints must be an OwnTracks _type waypoints object, an array of waypoints, "
                            + "or a GeoJSON FeatureCollection"
                    )
                )
            }
            guard let elements = value["waypoints"]?.elements else {
                return .failure(Problem(message: "waypoints.waypoints must be an array"))
            }
            entries = elements
        default:
            return .failure(Problem(message: "waypoints must be an object or an array"))
        }
        var text = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            switch feature(entry, named: "waypoints[\(index)]") {
            case .success(let feature): text += feature
            case .failure(let problem): return .failure(problem)
            }
        }
        text += "]}".utf8
        return .success(text)
    }

    /// One waypoint as a GeoJSON feature.
    private static func feature(_ waypoint: JSONValue, named name: String) -> Result<[UInt8], Problem> {
        func problem(_ message: String) -> Result<[UInt8], Problem> {
            .failure(Problem(message: "\(name): \(message)"))
        }
        guard case .object = waypoint else { return problem("must be an object") }
        if let type = waypoint["_type"], type.string != "waypoint" { return problem("_type must be \"waypoint\"") }
        var strings: [String: String] = [:]
        for key in ["desc", "rid", "uuid"] {
            guard let member = waypoint[key] else { continue }
            guard let string = member.string else { return problem("\(key) must be a string") }
            strings[key] = string
        }
        var numbers: [String: Double] = [:]
        for key in ["lat", "lon", "rad", "tst", "major", "minor"] {
            guard let member = waypoint[key] else { continue }
            guard let number = member.number else { return problem("\(key) must be a number") }
            numbers[key] = number
        }
        let id: String
        if let rid = strings["rid"], !rid.isEmpty {
            id = rid
        } else if let tst = numbers["tst"], let seconds = Int64(exactly: tst) {
            id = String(seconds)
        } else if let desc = strings["desc"], !desc.isEmpty {
            id = desc
        } else {
            return problem("no rid, tst or desc to name it")
        }
        var text = Array(#"{"type":"Feature","properties":{"id":"#.utf8)
        JSONText.appendQuoted(id, to: &text)
        if let desc = strings["desc"] {
            text += #","name":"#.utf8
            JSONText.appendQuoted(desc, to: &text)
        }
        if let uuid = strings["uuid"], !uuid.isEmpty {
            text += #","beacon":{"uuid":"#.utf8
            JSONText.appendQuoted(uuid, to: &text)
            for key in ["major", "minor"] {
                guard let value = numbers[key] else { continue }
                guard let integer = Int(exactly: value), (0...65_535).contains(integer) else {
                    return problem("\(key) must be an integer from 0 to 65535")
                }
                text += ",\"\(key)\":\(integer)".utf8
            }
            text += "}},\"geometry\":null}".utf8
            return .success(text)
        }
        guard let lat = numbers["lat"], let lon = numbers["lon"] else {
            return problem("a circle needs lat and lon (or a beacon waypoint uuid)")
        }
        guard let rad = numbers["rad"] else { return problem("a circle needs rad, its radius in metres") }
        text += #","radius":"#.utf8
        JSONText.appendNumber(rad, to: &text)
        text += #"},"geometry":{"type":"Point","coordinates":["#.utf8
        JSONText.appendNumber(lon, to: &text)
        text.append(UInt8(ascii: ","))
        JSONText.appendNumber(lat, to: &text)
        text += "]}}".utf8
        return .success(text)
    }

    /// The remote set as OwnTracks publishes it: `{"_type":"waypoints","device":…,"waypoints":[…]}`, a circle as
    /// `desc`, `lat`, `lon`, `rad`, `rid`; a beacon region as `desc`, `rid`, `uuid`, `major`, `minor`; a polygon,
    /// which OwnTracks has no waypoint for, as `desc`, `rid` and `"polygon": true`.
    static func message(device: String, entries: [RegionFile.Entry]) -> [UInt8] {
        var bytes = Array(#"{"_type":"waypoints","device":"#.utf8)
        JSONText.appendQuoted(device, to: &bytes)
        bytes += #","waypoints":["#.utf8
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"_type":"waypoint","rid":"#.utf8
            JSONText.appendQuoted(entry.id, to: &bytes)
            switch entry {
            case .geographic(let region):
                if let name = region.name {
                    bytes += #","desc":"#.utf8
                    JSONText.appendQuoted(name, to: &bytes)
                }
                switch region.shape {
                case .circle(let center, let radius):
                    bytes += #","lat":"#.utf8
                    JSONText.appendNumber(center.latitude, to: &bytes)
                    bytes += #","lon":"#.utf8
                    JSONText.appendNumber(center.longitude, to: &bytes)
                    bytes += #","rad":"#.utf8
                    JSONText.appendNumber(radius, to: &bytes)
                case .polygons:
                    bytes += #","polygon":true"#.utf8
                }
            case .beacon(let region):
                if let name = region.name {
                    bytes += #","desc":"#.utf8
                    JSONText.appendQuoted(name, to: &bytes)
                }
                bytes += #","uuid":"#.utf8
                JSONText.appendQuoted("\(region.constraint.uuid)", to: &bytes)
                if let major = region.constraint.major { bytes += ",\"major\":\(major)".utf8 }
                if let minor = region.constraint.minor { bytes += ",\"minor\":\(minor)".utf8 }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += "]}".utf8
        return bytes
    }
}
