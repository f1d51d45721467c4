/// Where everything is in a gazetteer file, version 1: the header, then arrays of fixed-size records in the
/// order of the k-d tree (``GazetteerBuilder``), then the text.
///
/// All numbers are little-endian (both the build machine and the board are). The header is 64 bytes:
///
/// | offset | field |
/// |---:|---|
/// | 0 | magic `WMPLACES` |
/// | 8 | version (UInt32, 1) |
/// | 12 | places, countries, admin1 codes, time zones (4 × UInt32) |
/// | 28 | bytes of names, bytes of the string pool (2 × UInt32), then 4 bytes of zero |
/// | 40 | the file's size (UInt64, a multiple of 32) |
/// | 48 | ``GazetteerChecksum`` of every byte after the header (UInt64), then 8 bytes of zero |
///
/// After it, for n places: their earth-centred positions (3 × Float32, metres), their latitudes and
/// longitudes (2 × Int32, 1e-7 degree: GeoNames gives at most 7 decimals, so dividing by 1e7 gives the very
/// Double that parsing the source's text gives), GeoNames ids (UInt32), name offsets (n + 1 × UInt32),
/// pool offsets (UInt32, one more than the pool's strings), admin1 and time zone indices (UInt16 each),
/// country indices (UInt8), the names (UTF-8), and the pool (UTF-8): the country codes, the country names,
/// the admin1 codes and the time zones, in that order. Zeros pad the file to a multiple of 32 bytes.
struct GazetteerLayout: Hashable, Sendable {
    static let magic: [UInt8] = Array("WMPLACES".utf8)
    static let version: UInt32 = 1
    static let headerSize = MappedIndexHeader.size
    static let kind = MappedIndexHeader.Kind(
        magic: magic,
        version: version,
        name: "a Waymark gazetteer",
        rebuild: "rebuild it with scripts/build-places.sh"
    )
    /// A UInt8 index: at most 255 countries; UInt16 for admin1 codes and zones.
    static let maximumCountries = 255
    static let maximumCodes = 65_535
    /// Far more than GeoNames has (12 million entries in all), and small enough that no offset overflows.
    static let maximumPlaces = 16_000_000

    var placeCount: Int
    var countryCount: Int
    var admin1Count: Int
    var timezoneCount: Int
    var nameBytes: Int
    var poolBytes: Int

    var poolCount: Int { 2 * countryCount + admin1Count + timezoneCount }

    var positions: Int { Self.headerSize }
    var coordinates: Int { positions + 12 * placeCount }
    var identifiers: Int { coordinates + 8 * placeCount }
    var nameOffsets: Int { identifiers + 4 * placeCount }
    var poolOffsets: Int { nameOffsets + 4 * (placeCount + 1) }
    var admin1s: Int { poolOffsets + 4 * (poolCount + 1) }
    var timezones: Int { admin1s + 2 * placeCount }
    var countries: Int { timezones + 2 * placeCount }
    var names: Int { countries + placeCount }
    var pool: Int { names + nameBytes }
    /// The size of a file with this layout: the end of the pool, padded.
    var fileSize: Int { (pool + poolBytes + 31) / 32 * 32 }

    /// Pool indices of the country `index`'s code and name, of an admin1 code and of a time zone.
    func countryCode(_ index: Int) -> Int { index }
    func countryName(_ index: Int) -> Int { countryCount + index }
    func admin1(_ index: Int) -> Int { 2 * countryCount + index }
    func timezone(_ index: Int) -> Int { 2 * countryCount + admin1Count + index }
}

/// The checksum of a gazetteer file: four interleaved multiply-and-shift lanes over 64-bit words, about
/// 0.5 ms for the whole file in a release build. It guards against truncation, a torn copy and bit rot,
/// not against a deliberate forgery; the structure is checked too, so that no file can make a lookup read
/// out of bounds.
enum GazetteerChecksum {
    /// The checksum of `bytes[start..<end]`; both multiples of 32, `bytes` 8-byte aligned.
    static func of(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt64 {
        precondition(start % 32 == 0 && end % 32 == 0 && start <= end && end <= bytes.count)
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, UInt64(end - start))
        let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var offset = start
        while offset < end {
            lanes.0 = mix(lanes.0, word(bytes, offset), multiplier)
            lanes.1 = mix(lanes.1, word(bytes, offset + 8), multiplier)
            lanes.2 = mix(lanes.2, word(bytes, offset + 16), multiplier)
            lanes.3 = mix(lanes.3, word(bytes, offset + 24), multiplier)
            offset += 32
        }
        var hash = lanes.0
        hash = mix(hash, lanes.1, multiplier)
        hash = mix(hash, lanes.2, multiplier)
        hash = mix(hash, lanes.3, multiplier)
        return hash
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.load(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func mix(_ lane: UInt64, _ word: UInt64, _ multiplier: UInt64) -> UInt64 {
        let product = (lane ^ word) &* multiplier
        return product ^ (product >> 29)
    }
}
