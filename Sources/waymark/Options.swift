import ArgumentParser
import Logging
import WaymarkAgent
import WaymarkSystem

/// Options every command that runs the pipeline takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "The configuration file (default: \(Agent.defaultConfigurationDescription) if present).")
    var config: String?

    @Option(name: .long, help: "Diagnostic log level on stderr.")
    var logLevel: Logger.Level = .info

    /// Loads the configuration, or prints every problem on its own line and exits with status 2.
    func loadConfiguration() throws -> Configuration {
        try load(ConfigurationSource(path: config))
    }

    /// Loads the configuration from `source`, or prints every problem on its own line and exits with status 2.
    func load(_ source: ConfigurationSource) throws -> Configuration {
        do {
            return try source.load()
        } catch {
            for issue in error.issues { printError(issue.description) }
            throw ExitCode(2)
        }
    }

    func makeLogger(label: String) -> Logger {
        DiagnosticOutput.bootstrap()
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// The exit status of a command refused because another process writes the same spool: 75, `EX_TEMPFAIL` of
/// sysexits(3), the resource is busy and the command can be run again once the other has stopped.
let spoolBusyStatus: Int32 = 75

/// Runs `body`, which refuses to start in one line: with exit status 2 when a directory of `[agent]` cannot be
/// used (a configuration error), and ``spoolBusyStatus`` when another process writes the spool.
func refusingAtStart<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let unusable as UnusableDirectory {
        printError("waymark: \(unusable)")
        throw ExitCode(2)
    } catch let held as AgentLock.Held {
        printError("waymark: \(held)")
        throw ExitCode(spoolBusyStatus)
    }
}

/// `--gpsd HOST[:PORT]` of `run` and `locate` as an endpoint, nil when not given, or a usage error naming it.
func gpsdEndpoint(_ text: String?) throws -> GPSDEndpoint? {
    guard let text else { return nil }
    guard let endpoint = GPSDEndpoint(text) else {
        throw ValidationError("--gpsd \(text): expected HOST, HOST:PORT or [IPv6]:PORT, port 1 to 65535")
    }
    return endpoint
}

/// Writes one line to stderr, marked as an error when stderr is the journal.
func printError(_ line: String) {
    FileDescriptorOutput.writeAll(DiagnosticOutput.errorLine(line), to: 2)
}
