import ArgumentParser
import WaymarkAgent
import WaymarkCore
import WaymarkSystem

extension Waymark {
    struct Locate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "locate",
            abstract: "Get the current location once, as Core Location's requestLocation does.",
            discussion: """
                Watches gpsd and keeps the most accurate valid, fresh fix. Stops as soon as a fix meets \
                --accuracy; when new fixes stay within 1 m of the best for more than 10 s (the readings stopped \
                improving: "force done"); or at --timeout with the best fix, which then does not meet the \
                accuracy. Progress goes to stderr; one JSON object goes to stdout: the fix with the keys of a \
                location event plus meets_accuracy, stop_reason (accuracy, force_done, timeout), age_s, \
                elapsed_s, fixes_seen and fixes_ignored; or an error object with code timeout, \
                gpsd_unavailable or no_device.

                Exit status: 0 a location was found; 2 gpsd cannot be reached (at once, without retrying); \
                3 no fix before the timeout; 4 gpsd has no receiver (none appeared within 2 s); 64 bad \
                arguments; 78 bad configuration file.
                """
        )

        /// Exit status of a configuration file that cannot be used (sysexits' `EX_CONFIG`): 2 is taken by
        /// "gpsd unavailable".
        static let configurationErrorStatus: Int32 = 78

        @OptionGroup var options: CommonOptions

        @Option(name: .long, help: "gpsd to connect to, HOST[:PORT] or [IPv6]:PORT (overrides [gpsd] host and port).")
        var gpsd: String?

        // `.unconditional` so that a negative number reaches validate() and its message, not "missing value".
        @Option(
            name: .long,
            parsing: .unconditional,
            help: ArgumentHelp(
                "Stop at the first fix this accurate: metres (95 %), or best to stop only when the readings "
                    + "stop improving or at the timeout.",
                valueName: "metres|best"
            )
        )
        var accuracy = "100"

        @Option(
            name: .long,
            parsing: .unconditional,
            help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds")
        )
        var timeout = 60.0

        @Option(
            name: .customLong("max-age"),
            parsing: .unconditional,
            help: ArgumentHelp(
                "Ignore fixes that arrive this many seconds later than the fixes around them (0: check only "
                    + "their order). Judged on the monotonic clock, so a wrong system clock makes no fix stale.",
                valueName: "seconds"
            )
        )
        var maxAge = 5.0

        /// The longest --timeout and --max-age: a day.
        private static let longest = 86_400.0

        func validate() throws {
            _ = try gpsdEndpoint(gpsd)
            _ = try desiredAccuracy()
            guard timeout > 0, timeout <= Self.longest else {
                throw ValidationError("--timeout \(Self.text(timeout)): must be more than 0 and at most 86400 seconds")
            }
            guard maxAge >= 0, maxAge <= Self.longest else {
                throw ValidationError("--max-age \(Self.text(maxAge)): must be 0 to 86400 seconds")
            }
        }

        func run() async throws {
            let source = ConfigurationSource(path: options.config, gpsd: try gpsdEndpoint(gpsd))
            let configuration: Configuration
            do {
                configuration = try source.load()
            } catch {
                for issue in error.issues { printError(issue.description) }
                throw ExitCode(Self.configurationErrorStatus)
            }
            let logger = options.makeLogger(label: "waymark.locate")
            let search = LocateSearch.Configuration(
                desiredAccuracy: try desiredAccuracy(),
                timeout: .seconds(timeout),
                maxFixAge: .seconds(maxAge)
            )
            let outcome = await Agent.locate(search, gpsd: configuration.gpsd) { step in
                if case .ignored = step {
                    logger.debug("\(step)")
                } else {
                    printError("waymark locate: \(step)")
                }
            }
            printError("waymark locate: \(outcome)")
            var line: [UInt8] = []
            outcome.encode(into: &line)
            _ = line.withUnsafeBytes { FileDescriptorOutput.writeAll($0, to: 1) }
            switch outcome.failure?.code {
            // Stopped by SIGTERM or SIGINT before a fix: a graceful stop, which the output says.
            case nil, .interrupted?: return
            case .gpsdUnavailable?: throw ExitCode(2)
            case .timeout?: throw ExitCode(3)
            case .noDevice?: throw ExitCode(4)
            case let code?: preconditionFailure("a search does not fail with \(code)")
            }
        }

        /// A number as it was most likely typed: `5`, not `5.0`.
        private static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
        }

        private func desiredAccuracy() throws -> DesiredAccuracy {
            if accuracy == "best" { return .best }
            guard let metres = Double(accuracy), metres > 0, metres.isFinite else {
                throw ValidationError("--accuracy \(accuracy): must be a number of metres greater than 0, or best")
            }
            return .meters(metres)
        }
    }
}
