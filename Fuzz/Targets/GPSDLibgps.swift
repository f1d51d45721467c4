// fuzz-target: gpsd-libgps
// fuzz-seeds: Tests/Fixtures/gpsd-logs
// fuzz-dictionary: gpsd.dict
// fuzz-max-len: 12288
import WaymarkCore
import WaymarkGPSD

/// gpsd JSON through libgps's own `gps_unpack` and Waymark's mapping of `gps_data_t` (``CaptureDecoder/libgps``,
/// what a live connection maps): whatever the lines, the replay ends with a bounded number of events.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDLibgps(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let replay = CaptureReplay(bytes: input, decoder: .libgps)
    var count = 0
    // A line gives a few events at most (a fix, a heading, a flush): more means the replay does not end.
    let bound = 16 + 8 * input.count
    while replay.next() != nil {
        count += 1
        require(count <= bound, "a replay of \(input.count) bytes gives more than \(bound) updates")
    }
    return 0
}
