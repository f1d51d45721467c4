/// Street addresses and named streets from OpenStreetMap, read in place from the bytes of an address file
/// (``AddressLayout``): the agent maps the file read-only, so its pages are file-backed, never the agent's
/// anonymous memory.
///
/// Opening checks the magic, the version, the size and so every section's bounds (``MappedIndexHeader``, as
/// the gazetteer), and with ``Verification/whole`` the checksum and every record too, so that a damaged file
/// is refused with an error naming it. Every accessor checks the indices the file holds (strings, localities)
/// against their bounds, so that no file, checked whole or not, can make a lookup read outside it: a damaged
/// record read unchecked gives a wrong answer (an empty string), never a crash.
///
/// Immutable; safe to share between threads as long as `owner` keeps the bytes mapped.
public struct AddressIndex: MappedIndex, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let layout: AddressLayout
    private let owner: (any AnyObject & Sendable)?

    /// How much of a file opening reads.
    public enum Verification: Sendable {
        /// The header, the size and the sections' bounds: 64 bytes, so that the agent's start and reload do not
        /// read a country's file (about 2 GB for Germany, tens of seconds from an SD card) before READY.
        case bounds
        /// Also the checksum and every record: the builder after writing, `places check`, `check-config`.
        case whole
    }

    /// Reads the address file in `bytes` (8-byte aligned: a mapping is page-aligned), valid while `owner` lives,
    /// checked whole.
    ///
    /// - Throws: ``GazetteerError``: not an address file, another version, truncated, or corrupt.
    public init(bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)?, file: String) throws(GazetteerError)
    {
        try self.init(bytes: bytes, owner: owner, file: file, verifying: .whole)
    }

    /// Reads the address file in `bytes` (8-byte aligned), valid while `owner` lives, checked as `verifying` says.
    ///
    /// - Throws: ``GazetteerError``: not an address file, another version, truncated, or (checked whole) corrupt.
    public init(
        bytes: UnsafeRawBufferPointer,
        owner: (any AnyObject & Sendable)?,
        file: String,
        verifying: Verification
    ) throws(GazetteerError) {
        layout = try MappedIndexHeader.checked(
            bytes,
            kind: AddressLayout.kind,
            file: file,
            checksum: verifying == .whole,
            fileSize: \.fileSize
        ) { field in
            let layout = AddressLayout(
                addressCount: field(12),
                pieceCount: field(16),
                localityCount: field(20),
                stringCount: field(24),
                stringBytes: field(28)
            )
            let limit = AddressLayout.maximumRecords
            guard layout.addressCount <= limit, layout.pieceCount <= limit, layout.localityCount <= limit,
                layout.stringCount <= 3 * limit, layout.stringCount > AddressLayout.licenceString
            else { return nil }
            return layout
        }
        self.bytes = bytes
        self.owner = owner
        if verifying == .whole { try checkStructure(file: file) }
    }

    public var addressCount: Int { layout.addressCount }
    public var streetPieceCount: Int { layout.pieceCount }
    public var byteCount: Int { layout.fileSize }
    /// The extract the file was built from, its date, and the data's licence, as the builder recorded them.
    public var sourceName: String { string(AddressLayout.sourceNameString) }
    public var sourceDate: String { string(AddressLayout.sourceDateString) }
    public var licence: String { string(AddressLayout.licenceString) }

    /// The address at `index` (0 ..< ``addressCount``), with `distance` as given.
    public func address(at index: Int, distance: Double) -> PostalAddress {
        precondition(index >= 0 && index < addressCount, "no address \(index) in a file of \(addressCount)")
        let fields = layout.addressFields + 12 * index
        let place = locality(Int(uint32(fields + 8)))
        return PostalAddress(
            houseNumber: string(Int(uint32(fields))),
            street: string(Int(uint32(fields + 4))),
            postcode: place.postcode,
            city: place.city,
            country: place.country,
            distance: distance
        )
    }

    /// The postcode, city and country of the nearest address tagged with the street name of piece `index`;
    /// all nil when no address names that street.
    public func locality(ofPiece index: Int) -> (postcode: String?, city: String?, country: String?) {
        precondition(index >= 0 && index < streetPieceCount, "no piece \(index) in a file of \(streetPieceCount)")
        return locality(Int(uint32(layout.pieceLocalities + 4 * index)))
    }

    /// Locality `index`; none for an index beyond the file's (a damaged record).
    private func locality(_ index: Int) -> (postcode: String?, city: String?, country: String?) {
        guard index < layout.localityCount else { return (nil, nil, nil) }
        let offset = layout.localities + 12 * index
        return (optional(Int(uint32(offset))), optional(Int(uint32(offset + 4))), optional(Int(uint32(offset + 8))))
    }

    /// The OpenStreetMap object of the address at `index`: its id, and whether it is a way (else a node).
    public func object(at index: Int) -> (id: Int64, isWay: Bool) {
        precondition(index >= 0 && index < addressCount, "no address \(index) in a file of \(addressCount)")
        let value = bytes.loadUnaligned(fromByteOffset: layout.addressObjects + 8 * index, as: UInt64.self)
        let object = UInt64(littleEndian: value)
        return (Int64(bitPattern: object >> 1), object & 1 == 1)
    }

    /// The latitude and longitude of the address at `index`.
    public func coordinate(at index: Int) -> Coordinate {
        precondition(index >= 0 && index < addressCount, "no address \(index) in a file of \(addressCount)")
        return coordinate(layout.addressCoordinates + 8 * index)
    }

    /// The name of the street of piece `index` (0 ..< ``streetPieceCount``).
    public func streetName(ofPiece index: Int) -> String {
        precondition(index >= 0 && index < streetPieceCount, "no piece \(index) in a file of \(streetPieceCount)")
        return string(Int(uint32(layout.pieceNames + 4 * index)))
    }

    /// The ends of street piece `index`.
    public func pieceEnds(_ index: Int) -> (Coordinate, Coordinate) {
        precondition(index >= 0 && index < streetPieceCount, "no piece \(index) in a file of \(streetPieceCount)")
        let offset = layout.pieceEnds + 16 * index
        return (coordinate(offset), coordinate(offset + 8))
    }

    @inline(__always)
    func coordinate(_ offset: Int) -> Coordinate {
        SourcePlace.coordinate(
            latitude: Int32(bitPattern: uint32(offset)),
            longitude: Int32(bitPattern: uint32(offset + 4))
        )
    }

    @inline(__always)
    func position(_ offset: Int) -> EarthCentered {
        EarthCentered(x: float(offset), y: float(offset + 4), z: float(offset + 8))
    }

    @inline(__always)
    private func float(_ offset: Int) -> Double {
        Double(Float(bitPattern: uint32(offset)))
    }

    @inline(__always)
    func uint32(_ offset: Int) -> UInt32 { UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self)) }

    /// String `index` of the file; empty for an index or offsets beyond the file's (a damaged record).
    func string(_ index: Int) -> String {
        guard index >= 0, index < layout.stringCount else { return "" }
        let from = Int(uint32(layout.stringOffsets + 4 * index))
        let to = Int(uint32(layout.stringOffsets + 4 * index + 4))
        guard from <= to, to <= layout.stringBytes else { return "" }
        let start = layout.strings
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + from)..<(start + to)]), as: UTF8.self)
    }

    private func optional(_ index: Int) -> String? { index == AddressLayout.emptyString ? nil : string(index) }
}
