// fuzz-target: config
// fuzz-seeds: config Tests/Fixtures/toml-test
// fuzz-dictionary: config.dict
@testable import WaymarkAgent

/// The operator's configuration (`waymark.toml`, `waymark check-config`, the fleet's `setConfiguration`): any text
/// is a configuration or a list of issues that each name a line; an accepted one has a canonical text (its digest
/// in the fleet's status) of one `section.key=value` line per key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let configuration: Configuration
    do {
        configuration = try Configuration.parse(String(decoding: input, as: UTF8.self), fileName: "fuzz.toml")
    } catch {
        require(!error.issues.isEmpty, "a configuration refused without an issue")
        for issue in error.issues { require((issue.line ?? 1) >= 1, "an issue at line \(issue.line ?? 0)") }
        return 0
    }
    let canonical = FleetDigests.canonicalText(of: configuration)
    for line in canonical.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        require(line.contains("=") && line.contains("."), "a canonical line that is no key: \(line)")
    }
    return 0
}
