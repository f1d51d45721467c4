// fuzz-target: geojson
// fuzz-seeds: config Tests/Fixtures/spool-grdb
// fuzz-dictionary: geojson.dict
import WaymarkCore

/// The operator's region file (GeoJSON, docs/regions.md): a file accepted whole is written back as the agent
/// writes it (`waymark regions add`, the fleet's remote set) and read again, and must give the same regions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let file = RegionFile(parsing: input, fileName: "fuzz.geojson")
    guard let entries = try? file.checkedEntries() else { return 0 }
    let written = RegionFile.encode(entries: entries)
    let reread = RegionFile(parsing: written, fileName: "written.geojson")
    let text = String(decoding: written, as: UTF8.self)
    guard let rereadEntries = try? reread.checkedEntries() else {
        fatalError("a region file accepted is refused once written: \(reread.problems)\n\(text)")
    }
    require(rereadEntries == entries, "read back, the regions differ:\n\(text)")
    return 0
}
