extension Gazetteer {
    /// The layout the header gives, once the magic, the version, the size and the checksum hold.
    static func checkedLayout(_ bytes: UnsafeRawBufferPointer, file: String) throws(GazetteerError) -> GazetteerLayout {
        let rebuild = "rebuild it with scripts/build-places.sh"
        guard bytes.count >= GazetteerLayout.headerSize, bytes.prefix(8).elementsEqual(GazetteerLayout.magic) else {
            throw GazetteerError(
                code: bytes.count < 8 ? .truncated : .notAGazetteer,
                file: file,
                message: bytes.count < 8
                    ? "\(bytes.count) bytes, too short for a Waymark gazetteer; \(rebuild)"
                    : "not a Waymark gazetteer (no WMPLACES magic at its start); \(rebuild)"
            )
        }
        precondition(Int(bitPattern: bytes.baseAddress) % 8 == 0, "a gazetteer's bytes must be 8-byte aligned")
        func field(_ offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self)))
        }
        let version = field(8)
        guard version == GazetteerLayout.version else {
            throw GazetteerError(
                code: .unsupportedVersion,
                file: file,
                message: "a gazetteer of format version \(version); this waymark reads version "
                    + "\(GazetteerLayout.version): \(rebuild)"
            )
        }
        let layout = GazetteerLayout(
            placeCount: field(12),
            countryCount: field(16),
            admin1Count: field(20),
            timezoneCount: field(24),
            nameBytes: field(28),
            poolBytes: field(32)
        )
        let declared = UInt64(littleEndian: bytes.load(fromByteOffset: 40, as: UInt64.self))
        guard layout.placeCount <= GazetteerLayout.maximumPlaces,
            layout.countryCount <= GazetteerLayout.maximumCountries,
            layout.admin1Count <= GazetteerLayout.maximumCodes, layout.timezoneCount <= GazetteerLayout.maximumCodes,
            layout.nameBytes < 1 << 30, layout.poolBytes < 1 << 30, declared == UInt64(layout.fileSize)
        else {
            throw GazetteerError(code: .corrupt, file: file, message: "its header does not hold together; \(rebuild)")
        }
        guard bytes.count == layout.fileSize else {
            throw GazetteerError(
                code: .truncated,
                file: file,
                message: "\(bytes.count) bytes where its header says \(layout.fileSize): "
                    + "\(bytes.count < layout.fileSize ? "truncated" : "extended"); \(rebuild)"
            )
        }
        let stored = UInt64(littleEndian: bytes.load(fromByteOffset: 48, as: UInt64.self))
        let computed = GazetteerChecksum.of(bytes, from: GazetteerLayout.headerSize, to: layout.fileSize)
        guard stored == computed else {
            throw GazetteerError(
                code: .corrupt,
                file: file,
                message: "its checksum does not match its contents: the file is damaged; \(rebuild)"
            )
        }
        return layout
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
