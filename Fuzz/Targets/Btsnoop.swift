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
    var writer = BtsnoopWriter()
    for report in capture.reports { writer.append(report) }
    let reread: BtsnoopReader
    do {
        reread = try BtsnoopReader(parsing: writer.bytes, fileName: "written.btsnoop")
    } catch {
        fatalError("the reports read do not read back once written: \(error)")
    }
    require(reread.reports == capture.reports, "read back, the reports differ")
    require(reread.problems.isEmpty, "a capture the agent writes has problems: \(reread.problems)")
    return 0
}
