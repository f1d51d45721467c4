// fuzz-target: btsnoop
// fuzz-seeds: Fuzz/Seeds/btsnoop
// fuzz-dictionary: btsnoop.dict
import WaymarkBluetooth
import WaymarkCore

/// Bluetooth captures (btsnoop, `waymark replay --beacons`): the reports read are written back as the agent writes
/// captures and read again, and must come back the same; damage is counted or thrown, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBtsnoop(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let capture = try? BtsnoopReader(parsing: input, fileName: "fuzz.btsnoop") else { return 0 }
    require(capture.problems.count <= BtsnoopReader.maximumProblems, "\(capture.problems.count) problems kept")
    require(capture.reports.count <= input.count / 8, "\(capture.reports.count) reports in \(input.count) bytes")
    // The writer writes legacy reports only (31 bytes of data at most); an extended report's data (up to 229
    // bytes) is read but not written back (the long run's first failure: 8.6 million executions).
    let legacy = capture.reports.filter { $0.data.count <= 31 }
    var writer = BtsnoopWriter()
    for report in legacy { writer.append(report) }
    let reread: BtsnoopReader
    do {
        reread = try BtsnoopReader(parsing: writer.bytes, fileName: "written.btsnoop")
    } catch {
        fatalError("the reports read do not read back once written: \(error)")
    }
    require(reread.reports == legacy, "read back, the reports differ")
    require(reread.problems.isEmpty, "a capture the agent writes has problems: \(reread.problems)")
    return 0
}
