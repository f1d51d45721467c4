/// Where everything is in an address file, version 2: the header, the addresses and the street pieces as
/// arrays of fixed-size records, each kind in the order of its own k-d tree (``KDTreeOrder``), then the text.
///
/// All numbers are little-endian. The header is 64 bytes (``MappedIndexHeader``):
///
/// | offset | field |
/// |---:|---|
/// | 0 | magic `WMADDRES` |
/// | 8 | version (UInt32, 2) |
/// | 12 | addresses, street pieces, localities, strings (4 × UInt32) |
/// | 28 | bytes of the strings (UInt32), then 8 bytes of zero |
/// | 40 | the file's size (UInt64, a multiple of 32) |
/// | 48 | ``GazetteerChecksum`` of every byte after the header (UInt64), then 8 bytes of zero |
///
/// After it, for n addresses: earth-centred positions (3 × Float32, metres), latitudes and longitudes
/// (2 × Int32, 1e-7 degree, OpenStreetMap's own unit), the OSM object (UInt64: id × 2, + 1 for a way), and the
/// house number, street and locality indices (3 × UInt32). For m street pieces (a named highway's segments,
/// cut to at most ``maximumPieceLength``): the earth-centred midpoint (3 × Float32), both ends (4 × Int32),
/// the street's string index (UInt32), and its locality (UInt32): that of the nearest address tagged with the
/// same street name, 0 when no address is (version 1 had no localities for streets). For the localities:
/// postcode, city, country (3 × UInt32 string indices). Then the strings' offsets (UInt32, one more than the strings) and the strings (UTF-8). String 0
/// is empty (a field the data lacks), 1 the extract's name, 2 its date (ISO 8601), 3 the data's licence.
struct AddressLayout: Hashable, Sendable {
    static let kind = MappedIndexHeader.Kind(
        magic: Array("WMADDRES".utf8),
        version: 2,
        name: "a Waymark address file",
        rebuild: "rebuild it with waymark places build-addresses"
    )
    /// A street piece is never longer than this, metres of chord, so that a search can bound a piece's
    /// distance by its midpoint's.
    static let maximumPieceLength = 100.0
    /// Small enough that no offset overflows a 64-bit file of 40 bytes per record; 3 × Germany's addresses.
    static let maximumRecords = 100_000_000
    static let emptyString = 0
    static let sourceNameString = 1
    static let sourceDateString = 2
    static let licenceString = 3

    var addressCount: Int
    var pieceCount: Int
    var localityCount: Int
    var stringCount: Int
    var stringBytes: Int

    var addressPositions: Int { MappedIndexHeader.size }
    var addressCoordinates: Int { addressPositions + 12 * addressCount }
    var addressObjects: Int { addressCoordinates + 8 * addressCount }
    var addressFields: Int { addressObjects + 8 * addressCount }
    var piecePositions: Int { addressFields + 12 * addressCount }
    var pieceEnds: Int { piecePositions + 12 * pieceCount }
    var pieceNames: Int { pieceEnds + 16 * pieceCount }
    var pieceLocalities: Int { pieceNames + 4 * pieceCount }
    var localities: Int { pieceLocalities + 4 * pieceCount }
    var stringOffsets: Int { localities + 12 * localityCount }
    var strings: Int { stringOffsets + 4 * (stringCount + 1) }
    var fileSize: Int { (strings + stringBytes + 31) / 32 * 32 }
}
