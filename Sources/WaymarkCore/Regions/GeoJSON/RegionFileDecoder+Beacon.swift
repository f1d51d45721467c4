import WaymarkFormats

extension RegionFileDecoder {
    /// A feature's `beacon` property, as read.
    struct BeaconRead {
        /// Where its value starts.
        var position: TextPosition
        /// Nil when the value has problems, which were reported.
        var constraint: BeaconConstraint?
    }

    private static let beaconForm = #"{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 7}"#

    /// Reads `properties.beacon`: an object of `uuid`, and optionally `major`, then `minor`.
    mutating func readBeacon(_ reader: inout JSONReader) throws(JSONReaderError) -> BeaconRead {
        let position = reader.position
        guard try reader.peek() == .object else {
            let value = try shown(&reader)
            report(
                .invalidBeacon,
                at: position,
                member: "properties.beacon",
                value: value,
                "must be an object such as \(Self.beaconForm) (major and minor optional)"
            )
            return BeaconRead(position: position)
        }
        try reader.beginObject()
        var keys = SeenKeys()
        var valid = true
        var uuid: BeaconUUID?
        var uuidGiven = false
        var major: UInt16?
        var minor: (value: UInt16, position: TextPosition)?
        let index = featureIndex ?? 0
        while let key = try reader.nextKey() {
            let member = "properties.beacon.\(key)"
            if isRepeated(key, in: &keys, of: "the beacon of feature \(index)", at: reader, member: member) {
                valid = false
                continue
            }
            let keyPosition = reader.keyPosition
            let valuePosition = reader.position
            if try reader.peek() == .null { continue }
            switch key {
            case "uuid":
                uuidGiven = true
                uuid = try readUUID(&reader)
                valid = valid && uuid != nil
            case "major":
                major = try readBeaconValue(&reader, member: member)
                valid = valid && major != nil
            case "minor":
                let value = try readBeaconValue(&reader, member: member)
                minor = value.map { ($0, valuePosition) }
                valid = valid && value != nil
            default:
                valid = false
                report(
                    .invalidBeacon,
                    at: keyPosition,
                    member: member,
                    "not a member of a beacon, which has uuid, major and minor: a misspelt one would match more "
                        + "beacons than meant"
                )
            }
        }
        if !uuidGiven {
            valid = false
            report(
                .invalidBeacon,
                at: position,
                member: "properties.beacon.uuid",
                "missing: the proximity UUID of the region's beacons, 8-4-4-4-12 hexadecimal digits"
            )
        }
        if let minor, major == nil {
            valid = false
            report(
                .invalidBeacon,
                at: minor.position,
                member: "properties.beacon.minor",
                value: "\(minor.value)",
                "needs a major: a beacon region is a UUID, or a UUID and a major, or all three"
            )
        }
        guard valid, let uuid else { return BeaconRead(position: position) }
        return BeaconRead(
            position: position,
            constraint: BeaconConstraint(uuid: uuid, major: major, minor: minor?.value)
        )
    }

    private mutating func readUUID(_ reader: inout JSONReader) throws(JSONReaderError) -> BeaconUUID? {
        let position = reader.position
        if try reader.peek() == .string {
            let text = try reader.readString()
            if let uuid = BeaconUUID(text) { return uuid }
            report(
                .invalidBeacon,
                at: position,
                member: "properties.beacon.uuid",
                value: JSONText.quoted(text),
                "must be 8-4-4-4-12 hexadecimal digits, such as \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\""
            )
        } else {
            let value = try shown(&reader)
            report(
                .invalidBeacon,
                at: position,
                member: "properties.beacon.uuid",
                value: value,
                "must be a string of 8-4-4-4-12 hexadecimal digits"
            )
        }
        return nil
    }

    /// A major or minor: an integer from 0 to 65535, written without a fraction or exponent.
    private mutating func readBeaconValue(
        _ reader: inout JSONReader,
        member: String
    ) throws(JSONReaderError) -> UInt16? {
        let position = reader.position
        let value = try reader.peek() == .number ? try reader.readNumberText() : try shown(&reader)
        let digits = value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        if digits, let number = UInt16(value) { return number }
        report(.invalidBeacon, at: position, member: member, value: value, "must be an integer from 0 to 65535")
        return nil
    }

    /// Checks a feature whose geometry is `null`, at `nullGeometry`: it needs a beacon and has no radius.
    mutating func checkBeaconRegion(_ properties: PropertiesRead, nullGeometry: TextPosition) {
        if properties.beacon == nil && !properties.isMalformed {
            report(
                .invalidBeacon,
                at: nullGeometry,
                member: "geometry",
                value: "null",
                "only a beacon region has no geometry, and it needs properties.beacon: \(Self.beaconForm); an "
                    + "area is a Point with a radius, a Polygon or a MultiPolygon"
            )
        }
        if let radius = properties.radius {
            report(
                .invalidRadius,
                at: radius.position,
                member: "properties.radius",
                value: radius.text ?? JSONText.number(radius.value),
                "a beacon region has no radius: it is wherever its beacons are heard"
            )
        }
        if let speedLimit = properties.speedLimit {
            report(
                .invalidProperty,
                at: speedLimit.position,
                member: "properties.speed_limit",
                value: JSONText.number(speedLimit.kmh),
                "a beacon region has no speed limit: it has no place for one; give the area around it as a region"
            )
        }
    }

    /// Checks a feature with a geometry (`hasGeometry`) or without the member: it has no beacon and is not
    /// ranged.
    mutating func checkArea(_ properties: PropertiesRead, hasGeometry: Bool) {
        guard hasGeometry else { return }
        if let beacon = properties.beacon {
            report(
                .invalidBeacon,
                at: beacon.position,
                member: "properties.beacon",
                "only a feature with \"geometry\": null is a beacon region; a region is an area or a beacon, not both"
            )
        }
        if let ranging = properties.ranging {
            report(
                .invalidBeacon,
                at: ranging.position,
                member: "properties.ranging",
                value: "\(ranging.value)",
                "only a beacon region (\"geometry\": null, with properties.beacon) is ranged"
            )
        }
    }
}
