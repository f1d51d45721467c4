import ArgumentParser
import Glibc
import WaymarkAgent
import WaymarkBluetooth
import WaymarkCore
import WaymarkGPSD

extension Waymark {
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Replay a recorded drive through the pipeline on a simulated clock.",
            discussion: """
                FILE is a gpsd JSON capture (what `gpspipe -w` writes), a raw receiver log (NMEA, or a binary \
                protocol gpsd reads), a GPX 1.1 file (trkpt, rtept, wpt with time, or without it given \
                --route-speed), or a Bluetooth capture (btsnoop, what `btmon -w FILE` writes), whose iBeacon \
                advertisements go through the beacon regions of [regions] file. A raw log is read by a gpsd of \
                its own (the first of /usr/sbin/gpsd, /usr/local/sbin/gpsd and gpsd in PATH, or the program in \
                the environment variable GPSD), as gpsfake does, on loopback ports, into the capture that gpsd makes of it, which is then replayed: the events \
                are those of the capture. That gpsd is stopped before the replay starts; it writes no file. \
                Without gpsd a raw log is refused with exit status 69; SIGHUP, SIGINT or SIGTERM while gpsd \
                reads it stops gpsd and exits with 129, 130 or 143, nothing replayed (a signal waymark was \
                started ignoring stays ignored). The counts of what was delivered and \
                what was rejected, and why, go to stderr, with the first GPX points skipped and their lines.
                """
        )

        @Argument(help: "The capture, raw receiver log or GPX file.")
        var file: String

        @Option(
            name: .long,
            help: """
                A Bluetooth capture (btsnoop) recorded during the drive: its advertisements are replayed with \
                the drive's reports, by their times.
                """
        )
        var beacons: String?

        @OptionGroup var options: CommonOptions

        @Flag(name: .long, help: "Write every event to stdout as JSON Lines.")
        var print = false

        // `.unconditional` so that a negative number reaches validate() and its message, not "missing value".
        @Option(
            name: .long,
            parsing: .unconditional,
            help: "Replay at N times the recorded speed (default: as fast as possible)."
        )
        var speed: Double?

        @Option(
            name: .customLong("route-speed"),
            parsing: .unconditional,
            help: """
                Replay a GPX planned route without times at a constant KMH: each point is reached from the one \
                before along the geodesic between them, from 2026-01-01T00:00:00Z on.
                """
        )
        var routeSpeedKMH: Double?

        @Flag(
            name: .long,
            help: """
                Keep the events in the spool of [agent] state_dir and hand them to the sinks ([sinks.file] \
                writes the event logs, trip tracks and summaries in log_dir), as the live agent does.
                """
        )
        var spool = false

        @Option(
            name: .long,
            help: """
                How to decode a gpsd capture: builtin (Waymark's decoder for TPV and SKY, held to \
                gps_unpack's values by the tests; about three times as fast) or libgps (its own gps_unpack \
                for every line, what a live connection maps).
                """
        )
        var decoder: CaptureDecoder = .builtin

        func validate() throws {
            if let speed, !(speed > 0 && speed.isFinite) {
                throw ValidationError("--speed \(speed): must be a number greater than 0")
            }
            if let routeSpeedKMH, !(1...1000).contains(routeSpeedKMH) {
                throw ValidationError("--route-speed \(routeSpeedKMH): must be a speed from 1 to 1000 km/h")
            }
        }

        func run() async throws {
            let configuration = try options.loadConfiguration()
            let logger = options.makeLogger(label: "waymark.replay")
            var source: any ReplaySource
            var capture: BeaconCapture?
            if BeaconCapture.isBtsnoop(file) {
                guard beacons == nil else {
                    printError("waymark replay: \(file) is a Bluetooth capture: --beacons takes the other one")
                    throw ExitCode(1)
                }
                source = NoDrive()
                capture = try openBeacons(file)
            } else {
                source = try openRecording()
                capture = try beacons.map(openBeacons)
            }
            let sink: any EventSink = print ? JSONLinesWriter(flushThreshold: 1 << 16) : DiscardingSink()
            let counters = try await refusingAtStart {
                try await Agent.replay(
                    source,
                    beacons: capture,
                    configuration: configuration,
                    speed: speed,
                    spooling: spool,
                    sink: sink,
                    logger: logger
                )
            }
            var summary = counters
            if let capture = source as? CaptureReplay, capture.nmeaSentences > 0 {
                summary.count("nmea", by: capture.nmeaSentences)
            }
            if let origin = (source as? CaptureReplay)?.rawLog {
                summary.count("gpsd_reports", by: origin.reports)
                if !origin.endReported {
                    logger.warning(
                        "gpsd \(origin.program.path) did not report the end of \(file) (a packet cut off at its end?): replayed what it reported"
                    )
                }
            }
            if let gpx = source as? GPXReplay {
                for line in gpx.skippedPoints(fileName: file) { logger.warning("\(line)") }
            }
            if let capture {
                let reader = capture.reader
                summary.count("bluetooth_records", by: reader.recordCount)
                summary.count("bluetooth_malformed_records", by: reader.malformedRecordCount)
                for problem in reader.problems.prefix(10) { logger.warning("\(problem)") }
            }
            printError("replay \(file): \(summary.summary)")
            if spool, let io = ProcessIO.current() {
                // What the spool and the sinks cost the disk, for measuring wear (scripts/measure-spool-wear.sh).
                printError("replay \(file): disk write_bytes=\(io.writeBytes) syscw=\(io.writeCalls)")
            }
        }

        /// A Bluetooth capture, or a one-line error naming it and exit status 1.
        private func openBeacons(_ path: String) throws -> BeaconCapture {
            do {
                return try BeaconCapture.open(path)
            } catch {
                printError("waymark replay: \(error)")
                throw ExitCode(1)
            }
        }

        /// The recording, or a one-line error naming it and exit status 1.
        private func openRecording() throws -> any ReplaySource {
            let result = Result { () throws(ReplayError) in
                try WaymarkGPSD.Replay.open(
                    contentsOf: file,
                    decoder: decoder,
                    routeSpeed: routeSpeedKMH.map { $0 / 3.6 },
                    gpsdOverride: getenv("GPSD").map { String(cString: $0) },
                    searchPath: getenv("PATH").map { String(cString: $0) }
                )
            }
            switch result {
            case .success(let source):
                return source
            case .failure(let error):
                printError("waymark replay: \(error)")
                switch error.code {
                case .gpsdMissing: throw ExitCode(gpsdMissingStatus)
                case .interrupted: throw ExitCode(128 + (error.signal ?? SIGINT))
                default: throw ExitCode(1)
                }
            }
        }
    }
}

extension CaptureDecoder: ExpressibleByArgument {}

/// The exit status of a replay of a raw receiver log without gpsd to read it: 69, `EX_UNAVAILABLE` of
/// sysexits(3), a program the command needs is missing.
let gpsdMissingStatus: Int32 = 69

/// The drive of a replay of a Bluetooth capture alone: none.
private final class NoDrive: ReplaySource {
    func next() -> SourceUpdate? { nil }
}
