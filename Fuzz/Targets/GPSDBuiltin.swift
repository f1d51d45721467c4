// fuzz-target: gpsd-builtin
// fuzz-seeds: Tests/Fixtures/gpsd-logs
// fuzz-dictionary: gpsd.dict
// fuzz-max-len: 12288
import WaymarkCore
import WaymarkGPSD

/// gpsd JSON, Waymark's own decoder (``CaptureDecoder/builtin``, what replay uses): whatever the lines, the replay
/// ends, and it gives exactly the events libgps's `gps_unpack` gives for the same lines, which the decoder
/// promises (it is held to libgps value for value).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDBuiltin(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let builtin = replayed(input, decoder: .builtin)
    let libgps = replayed(input, decoder: .libgps)
    require(builtin == libgps, "the builtin decoder and libgps disagree:\n\(builtin)\n\(libgps)")
    return 0
}

/// The updates a replay of `capture` gives, written out (NaN compares unequal to itself; its text does not).
func replayed(_ capture: [UInt8], decoder: CaptureDecoder) -> [String] {
    let replay = CaptureReplay(bytes: capture, decoder: decoder)
    var updates: [String] = []
    // A line gives a few events at most (a fix, a heading, a flush): more means the replay does not end.
    let bound = 16 + 8 * capture.count
    while let update = replay.next() {
        updates.append("\(update)")
        require(updates.count <= bound, "a replay of \(capture.count) bytes gives more than \(bound) updates")
    }
    return updates
}
