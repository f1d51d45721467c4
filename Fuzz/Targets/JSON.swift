// fuzz-target: json
// fuzz-seeds: Tests/Fixtures/JSONTestSuite Tests/Fixtures/spool-grdb
// fuzz-dictionary: json.dict
import WaymarkFormats

/// JSON documents (the status file, the fleet's messages, the region file's syntax): a document read is written
/// back and read again; it must read back equal, and write the same bytes the second time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let value = try? JSONValue(parsing: input) else { return 0 }
    var written: [UInt8] = []
    value.append(to: &written)
    let reread: JSONValue
    do {
        reread = try JSONValue(parsing: written)
    } catch {
        fatalError(
            "a document read does not read back once written: \(error)\n\(String(decoding: written, as: UTF8.self))"
        )
    }
    require(reread == value, "read back, the document differs: \(String(decoding: written, as: UTF8.self))")
    var rewritten: [UInt8] = []
    reread.append(to: &rewritten)
    require(rewritten == written, "read back, the document writes differently")
    return 0
}
