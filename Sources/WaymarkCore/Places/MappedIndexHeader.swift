/// The checks every index file the agent maps shares (the gazetteer, the address file): a 64-byte header with
/// an 8-byte magic, a UInt32 version at 8, the file's size (UInt64) at 40 and a ``GazetteerChecksum`` of every
/// byte after the header (UInt64) at 48; the rest of the header is the file's own.
struct MappedIndexHeader {
    static let size = 64

    /// What a file of one kind is called in messages, and how to make a good one.
    struct Kind {
        var magic: [UInt8]
        var version: UInt32
        /// `a Waymark gazetteer`.
        var name: String
        /// `rebuild it with scripts/build-places.sh`.
        var rebuild: String
    }

    /// The layout `read` makes of the header's fields, once the magic, the version, the size and (with
    /// `checksum`) the checksum hold; `read` returns nil when the fields do not hold together, and `fileSize` is
    /// the file's size by them. The checksum reads every byte of the file: skip it only where a damaged record
    /// can do no worse than give a wrong answer (``AddressIndex/Verification/bounds``).
    static func checked<Layout>(
        _ bytes: UnsafeRawBufferPointer,
        kind: Kind,
        file: String,
        checksum: Bool = true,
        fileSize: (Layout) -> Int,
        read: (_ field: (Int) -> Int) -> Layout?
    ) throws(GazetteerError) -> Layout {
        let magicText = String(decoding: kind.magic, as: UTF8.self)
        guard bytes.count >= Self.size, bytes.prefix(8).elementsEqual(kind.magic) else {
            throw GazetteerError(
                code: bytes.count < 8 ? .truncated : .notAGazetteer,
                file: file,
                message: bytes.count < 8
                    ? "\(bytes.count) bytes, too short for \(kind.name); \(kind.rebuild)"
                    : "not \(kind.name) (no \(magicText) magic at its start); \(kind.rebuild)"
            )
        }
        precondition(Int(bitPattern: bytes.baseAddress) % 8 == 0, "a mapped index's bytes must be 8-byte aligned")
        func field(_ offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.load(fromByteOffset: offset, as: UInt32.self)))
        }
        let version = field(8)
        guard version == kind.version else {
            throw GazetteerError(
                code: .unsupportedVersion,
                file: file,
                message: "\(kind.name) of format version \(version); this waymark reads version "
                    + "\(kind.version): \(kind.rebuild)"
            )
        }
        let declared = UInt64(littleEndian: bytes.load(fromByteOffset: 40, as: UInt64.self))
        guard let layout = read(field), declared == UInt64(fileSize(layout)) else {
            throw GazetteerError(
                code: .corrupt,
                file: file,
                message: "its header does not hold together; \(kind.rebuild)"
            )
        }
        let size = fileSize(layout)
        guard bytes.count == size else {
            throw GazetteerError(
                code: .truncated,
                file: file,
                message: "\(bytes.count) bytes where its header says \(size): "
                    + "\(bytes.count < size ? "truncated" : "extended"); \(kind.rebuild)"
            )
        }
        let stored = UInt64(littleEndian: bytes.load(fromByteOffset: 48, as: UInt64.self))
        guard !checksum || stored == GazetteerChecksum.of(bytes, from: Self.size, to: size) else {
            throw GazetteerError(
                code: .corrupt,
                file: file,
                message: "its checksum does not match its contents: the file is damaged; \(kind.rebuild)"
            )
        }
        return layout
    }

    /// Writes the checksum of `file[64...]` into its header.
    static func seal(_ file: inout [UInt8]) {
        let checksum = file.withUnsafeBytes { GazetteerChecksum.of($0, from: Self.size, to: file.count) }
        withUnsafeBytes(of: checksum.littleEndian) { file.replaceSubrange(48..<56, with: $0) }
    }
}
