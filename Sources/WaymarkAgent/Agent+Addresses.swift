import WaymarkCore
import WaymarkFormats
import WaymarkSystem

extension Agent {
    /// The credit the ODbL asks of whoever ships data derived from OpenStreetMap.
    public static let openStreetMapCredit = "© OpenStreetMap contributors, ODbL 1.0"

    /// The address file at `path`, mapped read-only and checked as `verifying` says (whole: every byte read).
    ///
    /// - Throws: ``GazetteerError`` naming the file and what is wrong with it.
    public static func openAddresses(
        _ path: String,
        verifying: AddressIndex.Verification
    ) throws(GazetteerError) -> AddressIndex {
        try AddressIndex.open(path: path, verifying: verifying)
    }

    /// What `waymark places build-addresses` made.
    public struct BuiltAddresses: Sendable {
        public var addresses: Int
        public var streetPieces: Int
        public var bytes: Int
        public var sourceDate: String
        /// Address ways cut by the extract's border, placed at the mean of the nodes it has.
        public var cutWays: Int
    }

    /// Builds the address file `output` from the OpenStreetMap PBF extract `extract`, recording the extract's
    /// name (`name`, or the file's) and its date: the header's replication time, else the newest element's.
    ///
    /// - Throws: ``GazetteerError`` for an extract that cannot be read or used, or an output that cannot be
    ///   written; the output is written whole or not at all.
    public static func buildAddresses(
        extract: String,
        output: String,
        name: String? = nil
    ) throws(GazetteerError) -> BuiltAddresses {
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(extract)
        } catch {
            throw GazetteerError(code: .unreadable, file: extract, message: error.withoutPath.description)
        }
        var builder = AddressBuilder()
        let header: PBFHeader
        do throws(PBFError) {
            var reader = try PBFReader(bytes: bytes)
            header = reader.header
            while let block = try reader.nextBlock() { builder.add(block) }
        } catch {
            throw GazetteerError(code: .malformedSource, file: extract, message: error.message)
        }
        let date = (header.replicationTimestamp ?? builder.newestTimestamp).map {
            String(Timestamp(seconds: $0).iso8601.prefix(19)) + "Z"
        }
        let sourceName = name ?? String(extract.split(separator: "/").last ?? Substring(extract))
        let file = try builder.build(sourceName: sourceName, sourceDate: date ?? "")
        let check = try AddressIndex(copying: file, file: output)
        do {
            try AtomicFile.write(file, to: output)
        } catch {
            throw GazetteerError(code: .unreadable, file: output, message: error.description)
        }
        return BuiltAddresses(
            addresses: check.addressCount,
            streetPieces: check.streetPieceCount,
            bytes: file.count,
            sourceDate: date ?? "unknown",
            cutWays: builder.cutWays
        )
    }
}
