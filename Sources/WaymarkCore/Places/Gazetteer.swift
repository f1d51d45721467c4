/// GeoNames' populated places, read in place from the bytes of a gazetteer file (``GazetteerLayout``): the
/// agent maps the file read-only, so the places are file-backed pages the kernel can drop and reload, never
/// the agent's anonymous memory.
///
/// Opening checks the magic, the version, the size, the checksum and the structure (every offset and index
/// within bounds), so that a damaged file is refused with an error naming it and what is wrong, and no file
/// can make a lookup read out of bounds. ``nearest(to:)`` is the nearest place by geodesic distance on WGS84.
///
/// Immutable; safe to share between threads as long as the bytes stay mapped: the gazetteer keeps `owner`,
/// whose lifetime is that of the mapping.
public struct Gazetteer: MappedIndex, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let layout: GazetteerLayout
    private let owner: (any AnyObject & Sendable)?

    /// The number of places.
    public var count: Int { layout.placeCount }

    /// The number of bytes of the file.
    public var byteCount: Int { layout.fileSize }

    /// Reads the gazetteer in `bytes`, which stay valid as long as `owner` lives.
    ///
    /// - Parameters:
    ///   - bytes: the whole file, at an 8-byte aligned address (a mapping is page-aligned).
    ///   - owner: what keeps `bytes` valid (the mapping); kept as long as the gazetteer or a copy of it.
    ///   - file: how messages name the file.
    /// - Throws: ``GazetteerError``: not a gazetteer, another version, truncated, or corrupt.
    public init(bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)?, file: String) throws(GazetteerError)
    {
        layout = try Self.checkedLayout(bytes, file: file)
        self.bytes = bytes
        self.owner = owner
        try checkStructure(file: file)
    }

    /// The place at `index` (0 ..< ``count``), in the file's (the tree's) order.
    public func entry(at index: Int) -> GazetteerEntry {
        precondition(index >= 0 && index < count, "no place \(index) in a gazetteer of \(count)")
        let countryIndex = Int(bytes[layout.countries + index])
        return GazetteerEntry(
            geonameID: uint32(layout.identifiers + 4 * index),
            name: text(layout.names, offsets: layout.nameOffsets, index),
            coordinate: coordinate(at: index),
            country: poolString(layout.countryCode(countryIndex)),
            countryName: nonEmpty(poolString(layout.countryName(countryIndex))),
            admin1: nonEmpty(poolString(layout.admin1(Int(uint16(layout.admin1s + 2 * index))))),
            timezone: nonEmpty(poolString(layout.timezone(Int(uint16(layout.timezones + 2 * index)))))
        )
    }

    /// The latitude and longitude of the place at `index`, exactly as the source's text gives them.
    func coordinate(at index: Int) -> Coordinate {
        let offset = layout.coordinates + 8 * index
        return SourcePlace.coordinate(
            latitude: Int32(bitPattern: uint32(offset)),
            longitude: Int32(bitPattern: uint32(offset + 4))
        )
    }

    /// The stored earth-centred position of the place at `index`: each axis within 0.25 m of the exact one.
    @inline(__always)
    func position(at index: Int) -> EarthCentered {
        let offset = layout.positions + 12 * index
        return EarthCentered(x: float(offset), y: float(offset + 4), z: float(offset + 8))
    }

    @inline(__always)
    func float(_ offset: Int) -> Double {
        Double(Float(bitPattern: UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self))))
    }

    @inline(__always)
    func uint32(_ offset: Int) -> UInt32 { UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self)) }

    @inline(__always)
    func uint16(_ offset: Int) -> UInt16 { UInt16(littleEndian: bytes.load(fromByteOffset: offset, as: UInt16.self)) }

    private func text(_ start: Int, offsets: Int, _ index: Int) -> String {
        let from = Int(uint32(offsets + 4 * index))
        let to = Int(uint32(offsets + 4 * index + 4))
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + from)..<(start + to)]), as: UTF8.self)
    }

    private func poolString(_ index: Int) -> String { text(layout.pool, offsets: layout.poolOffsets, index) }

    private func nonEmpty(_ string: String) -> String? { string.isEmpty ? nil : string }
}

/// One place of the gazetteer.
public struct GazetteerEntry: Hashable, Sendable {
    public var geonameID: UInt32
    public var name: String
    public var coordinate: Coordinate
    /// ISO 3166-1 alpha-2: `DE`.
    public var country: String
    /// In English: `Germany`.
    public var countryName: String?
    /// GeoNames' code of the first-level division within the country (`02`, Bavaria, in `DE`).
    public var admin1: String?
    /// IANA: `Europe/Berlin`.
    public var timezone: String?

    public init(
        geonameID: UInt32,
        name: String,
        coordinate: Coordinate,
        country: String,
        countryName: String? = nil,
        admin1: String? = nil,
        timezone: String? = nil
    ) {
        self.geonameID = geonameID
        self.name = name
        self.coordinate = coordinate
        self.country = country
        self.countryName = countryName
        self.admin1 = admin1
        self.timezone = timezone
    }
}

/// Bytes at an 8-byte aligned address, freed with their owner.
final class AlignedBytes: Sendable {
    nonisolated(unsafe) private let memory: UnsafeMutableRawBufferPointer
    let count: Int

    init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        self.memory = memory
        count = bytes.count
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: memory[0..<count]) }

    deinit { memory.deallocate() }
}
