import ArgumentParser
import WaymarkAgent

extension Waymark {
    /// `waymark sinks`: the network sinks, checked from the board.
    struct Sinks: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sinks",
            abstract: "Check the network sinks (Traccar, OwnTracks, batch HTTP) from this board.",
            subcommands: [Test.self]
        )
    }
}

extension Waymark.Sinks {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send one event to each enabled network sink, or to NAME, and print what its server answered.",
            discussion: """
                For an installer checking the URL, the device id and the certificates on a new board. The batch \
                endpoint gets a status event with seq 0 and "test":true; Traccar, which keeps positions only, gets \
                the newest location the spool holds again; OwnTracks gets a "_type":"test" message with seq 0 on \
                TOPIC/test, never retained, so what its subscribers hold stays the board's own position. Nothing in \
                the spool changes.

                Exit status: 0 every server confirmed; 1 one did not; 2 no such sink, or none enabled.
                """
        )

        @Argument(help: "traccar, owntracks or http; every enabled network sink when omitted.")
        var name: String?

        @OptionGroup var options: CommonOptions

        func run() throws {
            let configuration = try options.loadConfiguration()
            let results: [Agent.SinkTestResult]
            do {
                results = try Agent.testSinks(configuration, name: name)
            } catch {
                printError("waymark sinks test: \(error)")
                throw ExitCode(2)
            }
            for result in results { print(result.text) }
            if results.contains(where: { !$0.confirmed }) { throw ExitCode(1) }
        }
    }
}
