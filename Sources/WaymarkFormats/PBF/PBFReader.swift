/// Reads an OpenStreetMap PBF file (the format Geofabrik's extracts come in): a sequence of blobs, each a
/// length, a `BlobHeader` and a zlib-compressed `Blob` holding the `OSMHeader` block or a `PrimitiveBlock`.
///
/// Nodes (plain and `DenseNodes`) and ways are decoded; relations, changesets and the metadata other than the
/// timestamps are skipped. A blob compressed other than with zlib (LZMA, LZ4, zstd: rare, and not written by
/// osmium or Geofabrik by default) is refused with its offset.
public struct PBFReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads the header block of `bytes`, a whole PBF file.
    ///
    /// - Throws: ``PBFError`` when the file does not start with an `OSMHeader` blob, or needs a feature this
    ///   reader lacks (anything beyond `OsmSchema-V0.6` and `DenseNodes`, such as history files).
    public init(bytes: [UInt8]) throws(PBFError) {
        self.bytes = bytes
        guard let (type, data) = try nextBlob(), type.elementsEqual("OSMHeader".utf8) else {
            throw PBFError("not an OSM PBF file: it does not start with an OSMHeader blob")
        }
        header = try Self.header(data)
        let supported = ["OsmSchema-V0.6", "DenseNodes"]
        if let missing = header.requiredFeatures.first(where: { !supported.contains($0) }) {
            throw PBFError("the file requires the feature \(missing), which this reader lacks")
        }
    }

    public private(set) var header = PBFHeader()

    /// The next data block, nil at the end of the file.
    public mutating func nextBlock() throws(PBFError) -> PBFBlock? {
        while let (type, data) = try nextBlob() {
            // Unknown blob types are to be skipped (the format's rule), so that a future writer's extras pass.
            if type.elementsEqual("OSMData".utf8) { return try PBFPrimitiveBlock.decode(data) }
        }
        return nil
    }

    /// The type and the decompressed data of the next blob.
    private mutating func nextBlob() throws(PBFError) -> (type: ArraySlice<UInt8>, data: [UInt8])? {
        guard offset < bytes.count else { return nil }
        let at = offset
        guard bytes.count - offset >= 4 else { throw PBFError("at byte \(at): the file ends inside a blob's length") }
        let headerLength = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        guard headerLength < 64 * 1024, bytes.count - offset >= headerLength else {
            throw PBFError("at byte \(at): a blob header of \(headerLength) bytes (at most 64 KiB, within the file)")
        }
        var type: ArraySlice<UInt8> = []
        var dataSize = -1
        var reader = ProtobufReader(bytes[offset..<offset + headerLength])
        while let field = try reader.next() {
            switch field {
            case 1: type = try reader.bytesField()
            case 3: dataSize = Int(truncatingIfNeeded: try reader.varint())
            default: try reader.skip()
            }
        }
        offset += headerLength
        guard dataSize >= 0, dataSize <= 32 * 1024 * 1024, bytes.count - offset >= dataSize else {
            throw PBFError(
                "at byte \(at): a blob of \(dataSize) bytes, where the file has \(bytes.count - offset) left"
            )
        }
        let blob = bytes[offset..<offset + dataSize]
        offset += dataSize
        do throws(PBFError) {
            return (type, try Self.contents(of: blob))
        } catch {
            throw PBFError("at byte \(at): \(error.message)")
        }
    }

    /// The decompressed bytes of a `Blob`.
    private static func contents(of blob: ArraySlice<UInt8>) throws(PBFError) -> [UInt8] {
        var reader = ProtobufReader(blob)
        var rawSize = -1
        var compressed: ArraySlice<UInt8>?
        while let field = try reader.next() {
            switch field {
            case 1: return Array(try reader.bytesField())
            case 2: rawSize = Int(truncatingIfNeeded: try reader.varint())
            case 3: compressed = try reader.bytesField()
            case 4, 6, 7: throw PBFError("a blob compressed with LZMA, LZ4 or zstd; recompress it with zlib")
            default: try reader.skip()
            }
        }
        guard let compressed, rawSize >= 0, rawSize <= 64 * 1024 * 1024 else {
            throw PBFError("a blob with no data, or no stated size within 64 MiB")
        }
        do throws(InflateError) {
            return try Inflate.zlib(compressed, expectedSize: rawSize)
        } catch {
            throw PBFError("its zlib data: \(error.message)")
        }
    }

    private static func header(_ data: [UInt8]) throws(PBFError) -> PBFHeader {
        var header = PBFHeader()
        var reader = ProtobufReader(data[...])
        while let field = try reader.next() {
            switch field {
            case 4: header.requiredFeatures.append(String(decoding: try reader.bytesField(), as: UTF8.self))
            case 16: header.writingProgram = String(decoding: try reader.bytesField(), as: UTF8.self)
            case 32:
                let seconds = Int64(bitPattern: try reader.varint())
                guard PBFHeader.plausibleTimes ~= seconds else {
                    throw PBFError("the header's osmosis_replication_timestamp \(seconds) is not a date")
                }
                header.replicationTimestamp = seconds
            default: try reader.skip()
            }
        }
        return header
    }
}
