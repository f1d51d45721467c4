import ArgumentParser
import WaymarkAgent
import WaymarkCore

extension Waymark {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the agent: watch gpsd and emit events until SIGTERM or SIGINT.",
            discussion: """
                gpsd being down, restarting, or having no receiver is not fatal: the agent reports it as an \
                error event and reconnects with exponential backoff ([gpsd] reconnect_min to reconnect_max).
                """
        )

        @OptionGroup var options: CommonOptions

        @Option(name: .long, help: "gpsd to connect to, HOST[:PORT] or [IPv6]:PORT (overrides [gpsd] host and port).")
        var gpsd: String?

        @Flag(name: .long, help: "Write every event to stdout as JSON Lines.")
        var print = false

        @Option(name: .customLong("for"), help: "Stop gracefully after this long, e.g. 30s, 5m, 2h.")
        var duration: String?

        func validate() throws {
            _ = try gpsdEndpoint(gpsd)
            _ = try limit()
        }

        func run() async throws {
            var source = ConfigurationSource(path: options.config)
            source.gpsd = try gpsdEndpoint(gpsd)
            let configuration = try options.load(source)
            let limit = try limit()
            let logger = options.makeLogger(label: "waymark")
            if options.config == nil && !Agent.hasDefaultConfiguration {
                // The defaults make a working agent (gpsd on this board, the FHS directories): run on them, and
                // say so, as the package's conffile is expected there.
                logger.warning("no configuration file at \(Agent.defaultConfigurationPath): running on the defaults")
            }
            let sink: any EventSink =
                print ? JSONLinesWriter(flushThreshold: 1 << 16) : DiscardingSink()
            _ = try await refusingAtStart {
                try await Agent.run(
                    configuration: configuration,
                    reloading: source,
                    sink: sink,
                    duration: limit,
                    logger: logger
                )
            }
        }

        private func limit() throws -> Duration? {
            guard let duration else { return nil }
            guard let parsed = Duration(configText: duration), parsed > .zero else {
                throw ValidationError("--for \(duration): expected a duration such as 30s, 5m or 2h")
            }
            return parsed
        }
    }
}
