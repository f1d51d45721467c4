// fuzz-target: spool-line
// fuzz-seeds: Tests/Fixtures/spool-grdb Tests/Fixtures/JSONTestSuite
// fuzz-dictionary: events.dict
import WaymarkCore
import WaymarkFormats
import WaymarkUplink

/// An event line read back from the spool or a day log (docs/events.md): an accepted line goes through what the
/// sinks make of it, and what they make is well-formed: OwnTracks' payload is JSON, Traccar's query is one URL
/// query of printable ASCII.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpoolLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let line = try? EventLine(input) else { return 0 }
    _ = line.coordinate
    if let query = OsmAndQuery.query(for: line, deviceID: "board 7") {
        require(
            query.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") },
            "Traccar's query is not one URL query: \(query)"
        )
    }
    if let publication = OwnTracksMessage.publication(for: line, tid: "b7", inside: ["depot"]) {
        let payload = String(decoding: publication.payload, as: UTF8.self)
        require((try? JSONValue(parsing: publication.payload)) != nil, "OwnTracks' payload is not JSON: \(payload)")
    }
    return 0
}
