import ArgumentParser
import WaymarkAgent

extension Waymark {
    struct CheckConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Validate a configuration file without starting the agent.",
            discussion:
                "Prints one line per problem (file, line, key, what is allowed) and exits 2; exits 0 when valid."
        )

        @Argument(help: "The configuration file.")
        var file: String

        func run() throws {
            do {
                _ = try Configuration.load(contentsOf: file)
                print("\(file): valid")
            } catch {
                for issue in error.issues { printError(issue.description) }
                throw ExitCode(2)
            }
        }
    }
}
