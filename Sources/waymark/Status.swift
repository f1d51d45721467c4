import ArgumentParser
import WaymarkAgent

extension Waymark {
    /// `waymark status`: is this board tracking right now, and if not, why.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show what the running agent is doing now.",
            discussion: """
                Reads the status file in [agent] runtime_dir (default /run/waymark), after asking the agent to \
                write it afresh (SIGWINCH; this needs the right to signal it, as root or its user has): the \
                connection to gpsd, the receiver and its fix, the activity and the trip in progress, the regions \
                the vehicle is inside, the deferral window, the spool and each sink's backlog, the open health \
                alarms and the last 10 errors. It describes only the agent of the configuration's state_dir (the \
                file names it, and the pid in state_dir/waymark.lock): a status file another agent wrote is \
                named as another's. When no agent runs it says so, with the age of the last status file, and \
                what the spool holds.

                Exit status: 0 the agent runs; 3 no agent runs (as systemctl status for a stopped unit); 4 the \
                status file cannot be read (permission).
                """
        )

        @Flag(help: "Print one JSON object instead of a table.")
        var json = false

        @OptionGroup var options: CommonOptions

        func run() throws {
            let configuration = try options.loadConfiguration()
            let answer = Agent.status(configuration)
            guard let running = answer.running else {
                printError("waymark status: \(answer.text)")
                throw ExitCode(4)
            }
            print(json ? answer.json.text : answer.text)
            if !running { throw ExitCode(3) }
        }
    }
}
