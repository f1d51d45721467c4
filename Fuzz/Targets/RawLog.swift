// fuzz-target: raw-log
// fuzz-seeds: Tests/Fixtures/gpsd-logs
// fuzz-dictionary: gpsd.dict
// fuzz-max-len: 12288
import WaymarkCore

@testable import WaymarkGPSD

/// Raw receiver bytes through the capture path (`waymark replay` of a receiver log): Waymark tells a capture from
/// a raw log, then keeps the receiver's lines of what gpsd answers (``GPSDOutputFilter``) and replays them. gpsd's
/// own decoding of the receiver's bytes is gpsd's (its fuzzers cover it); the input here plays both the log and,
/// line by line, gpsd's answer, so that whatever gpsd sends back reaches the filter and the replay.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let sentences = try? Replay.sentencesUnlessCapture(input, "fuzz.log")
    if let sentences { require(sentences >= 0 && sentences <= input.count, "\(sentences) sentences counted") }
    var filter = GPSDOutputFilter(devicePath: "tcp://127.0.0.1:40000")
    var start = 0
    while start < input.count {
        let end = input[start...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
        if filter.take(input[start..<end]) == .end { break }
        start = end + 1
    }
    require(filter.capture.count <= input.count + 1, "the capture outgrew what gpsd sent")
    let replay = CaptureReplay(bytes: filter.capture)
    var count = 0
    while replay.next() != nil {
        count += 1
        require(count <= 16 + 8 * filter.capture.count, "the replay of the capture does not end")
    }
    return 0
}
