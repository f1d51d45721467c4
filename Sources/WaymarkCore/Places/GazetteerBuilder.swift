/// Makes a gazetteer file (``GazetteerLayout``) from GeoNames' populated places and country names, as
/// `data/places/` holds them (tab-separated, UTF-8, one header line each).
///
/// Cities: `geonameid name latitude longitude country admin1 population timezone`; countries: `iso name`.
/// Pure: text in, the file's bytes out. The places are stored in the order of an implicit k-d tree over their
/// earth-centred positions: the place of a range of the array is its middle one, the median along x, y or z
/// (by depth, in turn), with the smaller half before it and the larger after.
public enum GazetteerBuilder {
    /// The gazetteer file for `cities` and `countries`.
    ///
    /// - Parameters:
    ///   - citiesName, countriesName: how messages name the sources.
    /// - Throws: ``GazetteerError`` with code `malformedSource` naming the source, the line and what is wrong.
    public static func build(
        cities: [UInt8],
        citiesName: String,
        countries: [UInt8],
        countriesName: String
    ) throws(GazetteerError) -> [UInt8] {
        var tables = try SourceTables(countries: countries, name: countriesName)
        var places: [SourcePlace] = []
        places.reserveCapacity(cities.count / 64)
        var lineNumber = 0
        var problem: GazetteerError?
        forEachLine(of: cities) { line in
            lineNumber += 1
            guard lineNumber > 1, problem == nil, !line.isEmpty else { return }
            do throws(GazetteerError) {
                places.append(try SourcePlace(line, tables: &tables, source: citiesName, line: lineNumber))
            } catch {
                problem = error
            }
        }
        if let problem { throw problem }
        guard places.count <= GazetteerLayout.maximumPlaces else {
            throw malformed(
                citiesName,
                0,
                "\(places.count) places; a gazetteer holds at most \(GazetteerLayout.maximumPlaces)"
            )
        }
        guard tables.admin1.count <= GazetteerLayout.maximumCodes,
            tables.timezones.count <= GazetteerLayout.maximumCodes
        else {
            throw malformed(citiesName, 0, "more than \(GazetteerLayout.maximumCodes) admin1 codes or time zones")
        }
        let order = KDTreeOrder.order(places.map(\.position))
        return write(order.map { places[Int($0)] }, tables: tables)
    }

    /// The bytes of the file for `places`, already in tree order.
    private static func write(_ places: [SourcePlace], tables: SourceTables) -> [UInt8] {
        var names: [UInt8] = []
        var nameOffsets: [UInt32] = [0]
        for place in places {
            names += place.name.utf8
            nameOffsets.append(UInt32(names.count))
        }
        let poolStrings = tables.countryCodes + tables.countryNames + tables.admin1.strings + tables.timezones.strings
        var pool: [UInt8] = []
        var poolOffsets: [UInt32] = [0]
        for string in poolStrings {
            pool += string.utf8
            poolOffsets.append(UInt32(pool.count))
        }
        let layout = GazetteerLayout(
            placeCount: places.count,
            countryCount: tables.countryCodes.count,
            admin1Count: tables.admin1.count,
            timezoneCount: tables.timezones.count,
            nameBytes: names.count,
            poolBytes: pool.count
        )
        var file = ByteWriter(capacity: layout.fileSize)
        file.append(GazetteerLayout.magic)
        file.append(GazetteerLayout.version)
        for count in [layout.placeCount, layout.countryCount, layout.admin1Count, layout.timezoneCount] {
            file.append(UInt32(count))
        }
        file.append(UInt32(layout.nameBytes))
        file.append(UInt32(layout.poolBytes))
        file.append(UInt32(0))
        file.append(UInt64(layout.fileSize))
        file.append(UInt64(0))  // the checksum, below
        file.append(UInt64(0))
        for place in places { file.append(place.position) }
        for place in places {
            file.append(UInt32(bitPattern: place.latitude))
            file.append(UInt32(bitPattern: place.longitude))
        }
        for place in places { file.append(place.geonameID) }
        for offset in nameOffsets { file.append(offset) }
        for offset in poolOffsets { file.append(offset) }
        for place in places { file.append(place.admin1) }
        for place in places { file.append(place.timezone) }
        file.append(places.map(\.country))
        file.append(names)
        file.append(pool)
        file.pad(to: layout.fileSize)
        precondition(file.bytes.count == layout.fileSize, "the layout and the writer disagree")
        var bytes = file.bytes
        MappedIndexHeader.seal(&bytes)
        return bytes
    }

    /// Calls `body` with each line of `bytes`, without its `\n` (or `\r\n`).
    static func forEachLine(of bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        var start = 0
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let next = end + 1
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            body(bytes[start..<end])
            start = next
        }
    }

    static func malformed(_ source: String, _ line: Int, _ message: String) -> GazetteerError {
        GazetteerError(code: .malformedSource, file: source, message: line > 0 ? "line \(line): \(message)" : message)
    }
}

/// Little-endian bytes, appended.
struct ByteWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ values: [UInt8]) { bytes += values }

    mutating func pad(to size: Int) { bytes += repeatElement(0, count: size - bytes.count) }
}
