import WaymarkCore

// fuzz-target: fleet-cmd
// fuzz-seeds: Fuzz/Seeds/fleet-cmd
// fuzz-dictionary: fleet.dict
@testable import WaymarkAgent

/// The fleet's commands (a `cmd` payload on `TOPIC/cmd`, docs/fleet.md): any message is a command or a refusal;
/// what an answer echoes is bounded; the region set and the configuration a command carries go through the
/// readers the board applies them with.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFleetCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let accepted = Set(FleetCommand.Action.allCases)
    switch FleetCommand.read(input, accepting: accepted) {
    case .failure(let refusal):
        for echoed in [refusal.id, refusal.action].compactMap({ $0 }) {
            require(
                echoed.utf8.count <= FleetCommand.maximumEcho + "…".utf8.count,
                "a refusal echoes \(echoed.utf8.count) bytes"
            )
        }
        require(!refusal.message.isEmpty, "a refusal without a reason")
    case .success(let command):
        require(
            (command.id?.utf8.count ?? 0) <= FleetCommand.maximumEcho,
            "an id of \(command.id?.utf8.count ?? 0) bytes"
        )
        switch command.payload {
        case .none: break
        case .regions(let text):
            _ = try? RegionFile(parsing: text, fileName: "fleet-regions.geojson").checkedEntries()
        case .configuration(let text):
            _ = try? Configuration.parse(text, fileName: "fleet-config.toml")
        }
    }
    return 0
}
