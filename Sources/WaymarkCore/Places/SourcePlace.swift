/// One populated place as a source line gives it.
struct SourcePlace {
    var geonameID: UInt32
    var name: String
    /// 1e-7 degree.
    var latitude: Int32
    var longitude: Int32
    var country: UInt8
    var admin1: UInt16
    var timezone: UInt16
    /// Earth-centred, metres, rounded to Float (within 0.25 m of the exact point).
    var position: (x: Float, y: Float, z: Float)

    /// Reads `geonameid name latitude longitude country admin1 population timezone`.
    init(_ line: ArraySlice<UInt8>, tables: inout SourceTables, source: String, line number: Int) throws(GazetteerError)
    {
        let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        func problem(_ message: String) -> GazetteerError { GazetteerBuilder.malformed(source, number, message) }
        guard fields.count == 8 else {
            throw problem(
                "expected 8 tab-separated fields (geonameid name latitude longitude country admin1 population "
                    + "timezone), found \(fields.count)"
            )
        }
        guard let id = UInt32(String(decoding: fields[0], as: UTF8.self)) else {
            throw problem("geonameid \(String(decoding: fields[0], as: UTF8.self)): not a whole number")
        }
        geonameID = id
        name = String(decoding: fields[1], as: UTF8.self)
        guard !name.isEmpty else { throw problem("the place \(id) has no name") }
        guard let latitude = Self.fixedPoint(fields[2]), abs(latitude) <= 900_000_000 else {
            throw problem(
                "latitude \(String(decoding: fields[2], as: UTF8.self)): expected decimal degrees from -90 to 90 "
                    + "with at most 7 decimals"
            )
        }
        guard let longitude = Self.fixedPoint(fields[3]), abs(longitude) <= 1_800_000_000 else {
            throw problem(
                "longitude \(String(decoding: fields[3], as: UTF8.self)): expected decimal degrees from -180 to 180 "
                    + "with at most 7 decimals"
            )
        }
        self.latitude = latitude
        self.longitude = longitude
        let code = String(decoding: fields[4], as: UTF8.self)
        guard let country = tables.countryIndices[code] else {
            throw problem("country \(code): not in the countries' list")
        }
        self.country = country
        admin1 = tables.admin1.index(of: String(decoding: fields[5], as: UTF8.self))
        timezone = tables.timezones.index(of: String(decoding: fields[7], as: UTF8.self))
        let exact = EarthCentered(Self.coordinate(latitude: latitude, longitude: longitude))
        position = (Float(exact.x), Float(exact.y), Float(exact.z))
    }

    /// The coordinate that 1e-7 degree units stand for: the Double nearest the decimal, as parsing its text gives.
    static func coordinate(latitude: Int32, longitude: Int32) -> Coordinate {
        Coordinate(latitude: Double(latitude) / 1e7, longitude: Double(longitude) / 1e7)
    }

    /// A decimal with at most 7 decimals (`-12.3456789`) in units of 1e-7, read exactly; nil otherwise.
    static func fixedPoint(_ text: ArraySlice<UInt8>) -> Int32? {
        var digits = text[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var value: Int64 = 0
        var decimals = -1
        var sawDigit = false
        for byte in digits {
            if byte == UInt8(ascii: "."), decimals < 0 {
                decimals = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                sawDigit = true
                if decimals >= 0 { decimals += 1 }
                guard decimals <= 7, value < 1 << 40 else { return nil }
            } else {
                return nil
            }
        }
        guard sawDigit else { return nil }
        for _ in 0..<(7 - max(decimals, 0)) { value *= 10 }
        return Int32(exactly: negative ? -value : value)
    }
}
