// The arm64 probe of scripts/check-arm64.sh: what `waymark replay` and `waymark geo place --json` do, made of the
// same library calls, without swift-argument-parser (whose FoundationEssentials Debian ships for aarch64 only as
// a binary module that the host's Swift cannot read). Package.swift adds this target only when
// WAYMARK_ARM64_PROBE is set, as check-arm64.sh does for its cross build.
//   arm64probe replay FILE DECODER CONFIG [--spool]   = waymark replay FILE --config CONFIG --decoder DECODER
//                                                       (--print without --spool; with it, --spool and no sink)
//   arm64probe place GAZETTEER LAT LON [LAT LON ...]  = waymark geo place --json --file GAZETTEER LAT LON, each
// It prints the page size on stderr: the 16 KB-page kernel's run shows it ran there.
@preconcurrency import Glibc
import Logging
import WaymarkAgent
import WaymarkCore
import WaymarkGPSD

@main struct Arm64Probe {
    static func main() async throws {
        let arguments = CommandLine.arguments
        fputs("page size: \(sysconf(Int32(_SC_PAGESIZE)))\n", stderr)
        switch arguments.count > 1 ? arguments[1] : "" {
        case "replay" where arguments.count >= 5:
            try await replay(arguments[2], decoder: arguments[3], config: arguments[4], spool: arguments.count > 5)
        case "place" where arguments.count >= 5 && arguments.count % 2 == 1:
            try place(gazetteer: arguments[2], points: Array(arguments[3...]))
        default:
            fputs("usage: arm64probe replay FILE DECODER CONFIG [--spool] | place GAZETTEER LAT LON...\n", stderr)
            exit(2)
        }
    }

    static func replay(_ file: String, decoder: String, config: String, spool: Bool) async throws {
        let configuration = try ConfigurationSource(path: config).load()
        var logger = Logger(label: "waymark.replay")
        logger.logLevel = .warning
        guard let decoder = CaptureDecoder(rawValue: decoder) else { throw ProbeError.decoder(decoder) }
        let source = try WaymarkGPSD.Replay.open(contentsOf: file, decoder: decoder)
        let sink: any EventSink = spool ? DiscardingSink() : JSONLinesWriter(flushThreshold: 1 << 16)
        let counters = try await Agent.replay(
            source,
            configuration: configuration,
            spooling: spool,
            sink: sink,
            logger: logger
        )
        fputs("replay \(file): \(counters.summary)\n", stderr)
    }

    static func place(gazetteer path: String, points: [String]) throws {
        let gazetteer = try Agent.openGazetteer(path)
        for index in stride(from: 0, to: points.count, by: 2) {
            guard let latitude = Double(points[index]), let longitude = Double(points[index + 1]) else {
                throw ProbeError.point(points[index] + " " + points[index + 1])
            }
            let point = Coordinate(latitude: latitude, longitude: longitude)
            print(Agent.place(at: point, gazetteer: gazetteer, configuration: Configuration()).0.json)
        }
    }

    enum ProbeError: Error {
        case decoder(String)
        case point(String)
    }
}
