import ArgumentParser
import WaymarkAgent

extension Waymark {
    struct CheckConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Validate a configuration file, and the files it names, without starting the agent.",
            discussion: """
                Checks every key, then reads every file the configuration names that the agent reads at start, \
                as the agent reads it: the region file ([regions] file: every feature and the limits), the \
                gazetteer ([places] file, when enabled), and the password, CA, certificate and key files of the \
                enabled network sinks (present and readable by the user running the check: run it as the \
                agent's user). Prints one line per problem (file, line, key, what is wrong and what to do) and \
                exits 2; exits 0 when valid. With --digest, a valid file's configuration digest follows: the \
                config_digest a board running it publishes in its fleet status (waymark fleet status).
                """
        )

        @Argument(help: "The configuration file.")
        var file: String

        @Flag(help: "Also print the configuration's digest, as boards publish it in their fleet status.")
        var digest = false

        func run() throws {
            do {
                for note in try Agent.checkConfiguration(file) { print(note) }
                print("\(file): valid")
                if digest { print("config_digest \(try Agent.configurationDigest(file))") }
            } catch {
                for issue in error.issues { printError(issue.description) }
                throw ExitCode(2)
            }
        }
    }
}
