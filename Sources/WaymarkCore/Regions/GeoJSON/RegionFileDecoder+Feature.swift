import WaymarkFormats

extension RegionFileDecoder {
    /// An id as read from `properties.id` or the Feature's `id`.
    enum IDRead {
        /// Absent or null.
        case absent
        /// Reported already.
        case invalid
        case id(String, position: TextPosition)
    }

    /// A feature's `properties`, as read.
    struct PropertiesRead {
        /// Where the object opens; nil when `properties` is absent or not an object.
        var position: TextPosition?
        /// The member is there but not an object or null, which was reported.
        var isMalformed = false
        var id = IDRead.absent
        var name: String?
        var notifyOnEntry = true
        var notifyOnExit = true
        /// A number, with its text as written if it is not positive and finite; nil when absent, null or not
        /// a number.
        var radius: (value: Double, text: String?, position: TextPosition)?
        /// `radius` is there and not null, a number or not.
        var hasRadius = false
        /// `beacon`, when there and not null.
        var beacon: BeaconRead?
        /// `ranging`, when a boolean.
        var ranging: (value: Bool, position: TextPosition)?
        /// `speed_limit` in km/h, when a number above 0 and up to 1000, and where it is.
        var speedLimit: (kmh: Double, position: TextPosition)?
    }

    /// Reads the element of `features` at the reader.
    mutating func readFeature(_ reader: inout JSONReader, index: Int) throws(JSONReaderError) -> RegionFile.Feature {
        let position = reader.position
        let kind = try reader.peek()
        guard kind == .object else {
            try reader.skipValue()
            report(.malformedFeature, at: position, "must be a Feature object, not \(kind)")
            return finishFeature(index: index, position: position, id: nil, region: nil, vertexCount: 0)
        }
        try reader.beginObject()
        // What `type` holds if it is not "Feature", as a problem shows it, and where it is.
        var type: (unexpected: String?, position: TextPosition)?
        var ownID = IDRead.absent
        var properties = PropertiesRead()
        var geometry: GeometryRead?
        // Where `"geometry": null` is: a beacon region's.
        var nullGeometry: TextPosition?
        var keys = SeenKeys()
        while let key = try reader.nextKey() {
            if isRepeated(key, in: &keys, of: "feature \(index)", at: reader, member: key) { continue }
            switch key {
            case "type":
                let typePosition = reader.position
                type = (try unexpectedType(&reader, expected: "Feature"), typePosition)
            case "id":
                ownID = try readID(&reader, member: "id")
            case "properties":
                properties = try readProperties(&reader)
            case "geometry":
                if try reader.peek() == .null {
                    nullGeometry = reader.position
                    try reader.readNull()
                } else {
                    geometry = try readGeometry(&reader)
                }
            default:
                continue
            }
        }

        if let type, let unexpected = type.unexpected {
            report(.malformedFeature, at: type.position, member: "type", value: unexpected, "must be \"Feature\"")
        }
        let checksMembers = type?.unexpected == nil
        if type == nil {
            report(
                .malformedFeature,
                at: position,
                member: "type",
                "missing: a feature is {\"type\": \"Feature\", \"properties\": {…}, \"geometry\": {…}}"
            )
        }
        let id = resolveID(properties: properties, own: ownID, reportingAbsenceAt: checksMembers ? position : nil)
        if checksMembers {
            if geometry == nil && nullGeometry == nil {
                report(
                    .malformedFeature,
                    at: position,
                    member: "geometry",
                    properties.beacon == nil
                        ? "missing: a region is a Point with a radius, a Polygon or a MultiPolygon"
                        : "missing: a beacon region has \"geometry\": null"
                )
            }
            if let nullGeometry {
                checkBeaconRegion(properties, nullGeometry: nullGeometry)
            } else {
                checkRadius(properties, of: geometry?.type, featurePosition: position)
                checkArea(properties, hasGeometry: geometry != nil)
            }
        }

        var region: Region?
        var beaconRegion: BeaconRegion?
        var vertexCount = 0
        if let polygons = geometry?.polygons {
            vertexCount = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + max($1.count - 1, 0) } }
        }
        if let id, !featureHasProblems, nullGeometry != nil, let constraint = properties.beacon?.constraint {
            beaconRegion = BeaconRegion(
                id: id.text,
                name: properties.name,
                constraint: constraint,
                notifyOnEntry: properties.notifyOnEntry,
                notifyOnExit: properties.notifyOnExit,
                ranging: properties.ranging?.value
            )
        } else if let id, !featureHasProblems {
            let shape: RegionShape?
            if let center = geometry?.center, let radius = properties.radius?.value {
                shape = .circle(center: center, radius: radius)
            } else {
                shape = geometry?.polygons.map { .polygons($0) }
            }
            region = shape.map {
                Region(
                    id: id.text,
                    name: properties.name,
                    notifyOnEntry: properties.notifyOnEntry,
                    notifyOnExit: properties.notifyOnExit,
                    shape: $0,
                    speedLimitKmh: properties.speedLimit?.kmh
                )
            }
        }
        return finishFeature(
            index: index,
            position: position,
            id: id,
            region: region,
            beaconRegion: beaconRegion,
            vertexCount: vertexCount
        )
    }

    /// The id from `properties.id`, else from the Feature's `id`; reports two that differ, and no id at all when
    /// `absencePosition` is given.
    private mutating func resolveID(
        properties: PropertiesRead,
        own: IDRead,
        reportingAbsenceAt absencePosition: TextPosition?
    ) -> (text: String, member: String, position: TextPosition)? {
        switch (properties.id, own) {
        case (.id(let text, let position), .id(let ownText, let ownPosition)):
            if ownText != text {
                report(
                    .invalidID,
                    at: ownPosition,
                    member: "id",
                    value: JSONText.quoted(ownText),
                    "differs from properties.id \(JSONText.quoted(text)); give one id, or the same in both"
                )
            }
            return (text, "properties.id", position)
        case (.id(let text, let position), _):
            return (text, "properties.id", position)
        case (.absent, .id(let text, let position)):
            return (text, "id", position)
        case (.absent, .absent):
            if let absencePosition, !properties.isMalformed {
                report(
                    .missingID,
                    at: properties.position ?? absencePosition,
                    member: "properties.id",
                    "missing: each region needs an id, unique in the file"
                )
            }
            return nil
        case (.invalid, _), (.absent, .invalid):
            return nil
        }
    }

    private mutating func checkRadius(
        _ properties: PropertiesRead,
        of type: GeometryType?,
        featurePosition: TextPosition
    ) {
        switch type {
        case .point:
            if let radius = properties.radius {
                if !(radius.value > 0 && radius.value.isFinite) {
                    report(
                        .invalidRadius,
                        at: radius.position,
                        member: "properties.radius",
                        value: radius.text ?? JSONText.number(radius.value),
                        "must be a positive number of metres"
                    )
                }
            } else if !properties.hasRadius && !properties.isMalformed {
                report(
                    .invalidRadius,
                    at: properties.position ?? featurePosition,
                    member: "properties.radius",
                    "missing: a Point region is the circle of this many metres around it"
                )
            }
        case .polygon, .multiPolygon:
            if let radius = properties.radius {
                report(
                    .invalidRadius,
                    at: radius.position,
                    member: "properties.radius",
                    value: radius.text ?? JSONText.number(radius.value),
                    "only a Point has a radius; a polygon is its own area"
                )
            }
        case nil:
            break
        }
    }

    private mutating func readID(_ reader: inout JSONReader, member: String) throws(JSONReaderError) -> IDRead {
        let position = reader.position
        switch try reader.peek() {
        case .null:
            try reader.readNull()
            return .absent
        case .string:
            let text = try reader.readString()
            guard !text.isEmpty else {
                report(.missingID, at: position, member: member, value: "\"\"", "must not be empty")
                return .invalid
            }
            return .id(text, position: position)
        case .number:
            let text = try reader.readNumberText()
            guard
                text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                )
            else {
                report(.invalidID, at: position, member: member, value: text, "must be a string or an integer")
                return .invalid
            }
            return .id(text, position: position)
        case .boolean, .array, .object:
            report(
                .invalidID,
                at: position,
                member: member,
                value: try shown(&reader),
                "must be a string or an integer"
            )
            return .invalid
        }
    }

    private mutating func readProperties(_ reader: inout JSONReader) throws(JSONReaderError) -> PropertiesRead {
        var properties = PropertiesRead()
        let position = reader.position
        switch try reader.peek() {
        case .null:
            try reader.readNull()
            return properties
        case .object:
            properties.position = position
        default:
            report(
                .malformedFeature,
                at: position,
                member: "properties",
                value: try shown(&reader),
                "must be an object (or null)"
            )
            properties.isMalformed = true
            return properties
        }
        try reader.beginObject()
        var keys = SeenKeys()
        let index = featureIndex ?? 0
        while let key = try reader.nextKey() {
            if isRepeated(
                key,
                in: &keys,
                of: "the properties of feature \(index)",
                at: reader,
                member: "properties.\(key)"
            ) {
                continue
            }
            let valuePosition = reader.position
            let kind = try reader.peek()
            if kind == .null { continue }
            switch key {
            case "id":
                properties.id = try readID(&reader, member: "properties.id")
            case "name":
                if kind == .string {
                    properties.name = try reader.readString()
                } else {
                    let value = try shown(&reader)
                    report(
                        .invalidProperty,
                        at: valuePosition,
                        member: "properties.name",
                        value: value,
                        "must be a string"
                    )
                }
            case "notify_on_entry":
                properties.notifyOnEntry = try readFlag(&reader, member: "properties.notify_on_entry") ?? true
            case "notify_on_exit":
                properties.notifyOnExit = try readFlag(&reader, member: "properties.notify_on_exit") ?? true
            case "beacon":
                properties.beacon = try readBeacon(&reader)
            case "ranging":
                if let ranging = try readFlag(&reader, member: "properties.ranging") {
                    properties.ranging = (ranging, valuePosition)
                }
            case "speed_limit":
                var shownValue: String?
                if kind == .number {
                    let start = reader.offset
                    let number = try reader.readNumber()
                    if number > 0, number <= 1000 {
                        properties.speedLimit = (number, valuePosition)
                    } else {
                        shownValue = reader.text(from: start)
                    }
                } else {
                    shownValue = try shown(&reader)
                }
                if let shownValue {
                    report(
                        .invalidProperty,
                        at: valuePosition,
                        member: "properties.speed_limit",
                        value: shownValue,
                        "must be a number of km/h above 0, up to 1000"
                    )
                }
            case "radius":
                properties.hasRadius = true
                if kind == .number {
                    let start = reader.offset
                    let value = try reader.readNumber()
                    let text = value > 0 && value.isFinite ? nil : reader.text(from: start)
                    properties.radius = (value, text, valuePosition)
                } else {
                    let value = try shown(&reader)
                    report(
                        .invalidRadius,
                        at: valuePosition,
                        member: "properties.radius",
                        value: value,
                        "must be a number of metres"
                    )
                }
            default:
                continue
            }
        }
        return properties
    }

    /// A boolean; nil, reported, for anything else.
    private mutating func readFlag(_ reader: inout JSONReader, member: String) throws(JSONReaderError) -> Bool? {
        let position = reader.position
        if try reader.peek() == .boolean { return try reader.readBoolean() }
        report(.invalidProperty, at: position, member: member, value: try shown(&reader), "must be true or false")
        return nil
    }
}
