// fuzz-target: toml
// fuzz-seeds: Tests/Fixtures/toml-test config
// fuzz-dictionary: toml.dict
import WaymarkFormats

/// TOML documents (the configuration's syntax): a document read is written back as TOML (every value on one line,
/// as messages quote it) and read again; the second reading must write the same text. A document that fails to
/// read must fail with an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let document = try? TOMLDocument(parsing: input, fileName: "fuzz.toml") else { return 0 }
    let written = tomlText(document.root)
    let reread: TOMLDocument
    do {
        reread = try TOMLDocument(parsing: written, fileName: "written.toml")
    } catch {
        fatalError("a document read does not read back once written: \(error)\n\(written)")
    }
    require(tomlText(reread.root) == written, "read back, the document writes differently:\n\(written)")
    return 0
}

/// The table as TOML: one `key = value` line per entry, sub-tables inline.
private func tomlText(_ table: TOMLTable) -> String {
    table.entries.map { "\(TOMLValue.key($0.key)) = \($0.value)\n" }.joined()
}
