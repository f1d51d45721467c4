// fuzz-target: tzif
// fuzz-seeds: Fuzz/Seeds/tzif
// fuzz-dictionary: tzif.dict
import WaymarkFormats

/// TZif files (`/usr/share/zoneinfo`, read for the day logs' local dates) and their POSIX TZ footers: a file read
/// answers the local time at any instant, the far past and future included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTZif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    if let zone = try? ZoneInfo(tzif: input, name: "Fuzz/Zone") {
        for seconds: Int64 in [.min, -2_208_988_800, -1, 0, 1_767_225_600, 4_102_444_800, 253_402_300_799, .max] {
            _ = zone.localTime(at: seconds)
        }
    }
    // The footer alone: the input as a TZ string.
    if input.count <= 256, let rule = try? POSIXTimeZone(String(decoding: input, as: UTF8.self)) {
        for seconds: Int64 in [.min, 0, 1_767_225_600, 1_782_864_000, .max] { _ = rule.localTime(at: seconds) }
    }
    return 0
}
