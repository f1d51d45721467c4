// fuzz-target: gpx
// fuzz-seeds: Fuzz/Seeds/gpx Tests/Fixtures/gpx-schema
// fuzz-dictionary: gpx.dict
import WaymarkCore
import WaymarkGPX

/// GPX files (`waymark replay`, imported tracks): read with and without a route speed; every point kept has a
/// valid coordinate, and every point left out has a line and a reason.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    for routeSpeed in [nil, 13.9] {
        guard let file = try? GPXFile.parse(input, fileName: "fuzz.gpx", routeSpeed: routeSpeed) else { return 0 }
        for location in file.locations {
            require(
                abs(location.latitude) <= 90 && abs(location.longitude) <= 180,
                "a point kept outside the globe: \(location.latitude), \(location.longitude)"
            )
        }
        for rejection in file.rejected {
            require(rejection.line >= 1 && !rejection.reason.isEmpty, "a point left out without its line or reason")
        }
    }
    return 0
}
