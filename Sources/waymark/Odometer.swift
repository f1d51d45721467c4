import ArgumentParser
import Glibc
import WaymarkAgent

extension Waymark {
    /// `waymark odometer set KM`: aligns the odometer with the vehicle's own.
    struct Odometer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "odometer",
            abstract: "Set the odometer (docs/driving.md).",
            subcommands: [Set.self]
        )
    }
}

extension Waymark.Odometer {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the odometer to KM kilometres, as the vehicle's own reads.",
            discussion: """
                The request goes to [agent] state_dir/odometer-set (written atomically); the running agent, found by \
                state_dir/waymark.pid, is told with SIGHUP and takes it at once, and saves it with its next commit. \
                Without a running agent, the next start takes it. From then on the odometer counts on from KM.

                Exit status: 0 the request is written (and the agent told, when one runs); 1 it could not be written.
                """
        )

        @Argument(help: "Kilometres, 0 or more.")
        var kilometres: Double

        @OptionGroup var options: CommonOptions

        func validate() throws {
            guard kilometres.isFinite, kilometres >= 0, kilometres < 100_000_000 else {
                throw ValidationError("KM must be a number of kilometres from 0 to 100000000, not \(kilometres)")
            }
        }

        func run() throws {
            let configuration = try options.loadConfiguration()
            let request = OdometerRequest(stateDirectory: configuration.agent.stateDirectory)
            do {
                try request.write(metres: kilometres * 1000)
            } catch {
                printError("waymark odometer set: \(request.path): \(error)")
                throw ExitCode(1)
            }
            do {
                try PIDFile(stateDirectory: configuration.agent.stateDirectory).signal(SIGHUP)
                print("odometer set to \(kilometres) km: the running agent takes it now")
            } catch {
                print("odometer set to \(kilometres) km: the agent takes it at its next start (\(error))")
            }
        }
    }
}
