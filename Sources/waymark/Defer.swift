import ArgumentParser
import Glibc
import WaymarkAgent

extension Waymark {
    /// `waymark defer off|on`: Core Location's `disallowDeferredLocationUpdates` on a running agent.
    struct Defer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "defer",
            abstract: "End or resume the deferral of events on the running agent.",
            discussion: """
                off ends the open deferral window at once (one deferred_finished event, reason disabled) and hands \
                every event to the sinks as it is committed; on defers again with the [deferred] thresholds. \
                Either lasts until the agent is reloaded (SIGHUP) or restarted, which apply [deferred] enabled. \
                The agent is found by [agent] state_dir/waymark.pid.

                Exit status: 0 the agent was told; 1 no agent runs.
                """
        )

        @Argument(help: "off or on.")
        var state: String

        @OptionGroup var options: CommonOptions

        func validate() throws {
            guard state == "off" || state == "on" else { throw ValidationError("expected off or on, not \(state)") }
        }

        func run() throws {
            let configuration = try options.loadConfiguration()
            let file = PIDFile(stateDirectory: configuration.agent.stateDirectory)
            do {
                try file.signal(state == "off" ? SIGUSR1 : SIGUSR2)
            } catch {
                printError("waymark defer \(state): \(error)")
                throw ExitCode(1)
            }
        }
    }
}
