// fuzz-target: http-answer
// fuzz-seeds: Fuzz/Seeds/http-answer
// fuzz-dictionary: http.dict
import WaymarkCore

@testable import WaymarkUplink

/// What an uplink's server answers (the batch sink, Traccar): the input is a status line's number, then header
/// lines as libcurl hands them over, a blank line, and the body. The delivery rules take every answer: a wait
/// asked for is never negative, and the cursor moves by the rules whatever the server says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let (statusText, rest) = split(input, at: UInt8(ascii: "\n"))
    let status = Int(String(decoding: statusText.prefix(6), as: UTF8.self)) ?? -1
    var retryAfter: String?
    var remaining = rest
    while let end = remaining.firstIndex(of: UInt8(ascii: "\n")), end > remaining.startIndex {
        let header = Array(remaining[...end])
        if let value = header.withUnsafeBytes({ HTTPClient.value(of: "retry-after", in: $0) }) { retryAfter = value }
        remaining = remaining[(end + 1)...]
    }
    let body = String(decoding: remaining.dropFirst().prefix(HTTPClient.bodyLimit), as: UTF8.self)
    let wallClock = Timestamp(seconds: 1_767_225_600)
    let answer = DeliveryPolicy.answer(httpStatus: status, retryAfter: retryAfter, body: body, wallClock: wallClock)
    if case .temporary(_, let wait?) = answer { require(wait >= .zero, "a negative wait: \(wait)") }
    var policy = DeliveryPolicy()
    var generator = SplitMix(seed: UInt64(input.count))
    let now = MonotonicInstant(nanoseconds: 1_000_000_000)
    _ = policy.record(answer, sent: 4, now: now, using: &generator)
    require(policy.batchSize(available: 100) >= 1, "no event may be sent after \(answer)")
    return 0
}

/// A fixed sequence of random numbers, so that a crash replays.
private struct SplitMix: RandomNumberGenerator {
    var seed: UInt64
    mutating func next() -> UInt64 {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var value = seed
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
