extension Gazetteer {
    /// The layout the header gives, once the magic, the version, the size and the checksum hold.
    static func checkedLayout(_ bytes: UnsafeRawBufferPointer, file: String) throws(GazetteerError) -> GazetteerLayout {
        try MappedIndexHeader.checked(bytes, kind: GazetteerLayout.kind, file: file, fileSize: \.fileSize) { field in
            let layout = GazetteerLayout(
                placeCount: field(12),
                countryCount: field(16),
                admin1Count: field(20),
                timezoneCount: field(24),
                nameBytes: field(28),
                poolBytes: field(32)
            )
            guard layout.placeCount <= GazetteerLayout.maximumPlaces,
                layout.countryCount <= GazetteerLayout.maximumCountries,
                layout.admin1Count <= GazetteerLayout.maximumCodes,
                layout.timezoneCount <= GazetteerLayout.maximumCodes,
                layout.nameBytes < 1 << 30, layout.poolBytes < 1 << 30
            else { return nil }
            return layout
        }
    }

    /// Checks every offset and index of the file, so that no lookup reads out of bounds whatever the file holds.
    func checkStructure(file: String) throws(GazetteerError) {
        func corrupt(_ what: String) -> GazetteerError {
            GazetteerError(code: .corrupt, file: file, message: "\(what); rebuild it with scripts/build-places.sh")
        }
        guard ascending(layout.nameOffsets, count: layout.placeCount + 1, end: layout.nameBytes) else {
            throw corrupt("its names' offsets are out of order or out of bounds")
        }
        guard ascending(layout.poolOffsets, count: layout.poolCount + 1, end: layout.poolBytes) else {
            throw corrupt("its pool's offsets are out of order or out of bounds")
        }
        for index in 0..<layout.placeCount {
            guard Int(bytes[layout.countries + index]) < layout.countryCount,
                Int(uint16(layout.admin1s + 2 * index)) < layout.admin1Count,
                Int(uint16(layout.timezones + 2 * index)) < layout.timezoneCount
            else {
                throw corrupt("place \(index) names a country, admin1 code or time zone it does not hold")
            }
            let coordinate = coordinate(at: index)
            let position = position(at: index)
            guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180, position.x.isFinite,
                position.y.isFinite, position.z.isFinite
            else {
                throw corrupt("place \(index) has a position out of range")
            }
        }
    }

    /// Whether `count` UInt32 at `offset` start at 0, never decrease, and end at `end`.
    private func ascending(_ offset: Int, count: Int, end: Int) -> Bool {
        var previous: UInt32 = 0
        guard uint32(offset) == 0 else { return false }
        for index in 0..<count {
            let value = uint32(offset + 4 * index)
            guard value >= previous else { return false }
            previous = value
        }
        return Int(previous) == end
    }
}
