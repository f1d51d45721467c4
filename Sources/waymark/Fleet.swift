import ArgumentParser
import WaymarkAgent
import WaymarkClocks
import WaymarkSystem

extension Waymark {
    /// `waymark fleet`: the operator's side of the fleet, on a workstation, against the boards' broker.
    struct Fleet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fleet",
            abstract: "See the fleet's boards through their MQTT broker, from a workstation.",
            subcommands: [Status.self]
        )
    }
}

extension Waymark.Fleet {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "One line per board from the retained status messages of the boards with [fleet] enabled.",
            discussion: """
                Subscribes to PATTERN (default owntracks/+/+/status) on the broker with a clean session of its \
                own, takes the retained _type status messages until --settle passes without a new one, and prints \
                one line per board: device, online or offline, the last fix's age (by this workstation's clock), \
                the alarms, each sink's unsent events, the version, and the first 12 digits of the configuration's \
                and the regions' digests. Boards with an alarm, offline or with an unreadable status come first. \
                A board killed or cut off shows offline once the broker gives up on it (one and a half keepalives); \
                one stopped cleanly says so at once.

                Exit status: 0 every board online without alarm; 1 some board needs a look (or none answered); \
                2 the broker could not be read.
                """
        )

        @Option(help: ArgumentHelp("The boards' broker: HOST or HOST:PORT ([IPv6]:PORT).", valueName: "host[:port]"))
        var broker: String

        @Option(help: ArgumentHelp("The status topics, MQTT wildcards allowed.", valueName: "pattern"))
        var topic = "owntracks/+/+/status"

        @Flag(help: "Print a JSON array, one object per board, instead of lines.")
        var json = false

        @Option(help: ArgumentHelp("Wait this long without a new message before printing.", valueName: "duration"))
        var settle = "1s"

        @Option(help: "The broker's user name.")
        var username: String?

        @Option(help: ArgumentHelp("A file whose first line is the password.", valueName: "path"))
        var passwordFile: String?

        @Option(help: ArgumentHelp("TLS: the certificate authorities to verify the broker (PEM).", valueName: "path"))
        var caFile: String?

        @Option(help: ArgumentHelp("TLS: a client certificate (PEM), with --key-file.", valueName: "path"))
        var certFile: String?

        @Option(help: ArgumentHelp("TLS: the client certificate's key (PEM).", valueName: "path"))
        var keyFile: String?

        func validate() throws {
            guard Duration(configText: settle) != nil else {
                throw ValidationError("--settle \(settle): must be a duration such as \"500ms\" or \"2s\"")
            }
            guard Self.endpoint(broker, tls: caFile != nil) != nil else {
                throw ValidationError("--broker \(broker): must be HOST or HOST:PORT with a port from 1 to 65535")
            }
            if (certFile == nil) != (keyFile == nil) {
                throw ValidationError("--cert-file and --key-file go together")
            }
        }

        func run() throws {
            guard let (host, port) = Self.endpoint(broker, tls: caFile != nil),
                let quiet = Duration(configText: settle)
            else { throw ExitCode(2) }
            let boards: [FleetBoard]
            do {
                boards = try Agent.fleetBoards(
                    broker: Agent.FleetBroker(
                        host: host,
                        port: port,
                        username: username,
                        passwordFile: passwordFile,
                        caFile: caFile,
                        certFile: certFile,
                        keyFile: keyFile
                    ),
                    pattern: topic,
                    settle: quiet
                )
            } catch {
                printError("waymark fleet status: \(error)")
                throw ExitCode(2)
            }
            let now = SystemClocks.wall()
            if json {
                print(FleetTable.json(boards, now: now))
            } else if boards.isEmpty {
                print("no board: nothing retained on \(topic) at \(broker)")
            } else {
                for line in FleetTable.lines(boards, now: now) { print(line) }
            }
            if boards.isEmpty || boards.contains(where: \.needsAttention) { throw ExitCode(1) }
        }

        /// `HOST`, `HOST:PORT`, `[IPv6]:PORT`: the host and the port (1883, or 8883 with TLS).
        static func endpoint(_ text: String, tls: Bool) -> (String, Int)? {
            let standard = tls ? 8883 : 1883
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { return nil }
                let host = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...]
                if rest.isEmpty { return host.isEmpty ? nil : (host, standard) }
                guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else {
                    return nil
                }
                return (host, port)
            }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard !text.isEmpty, parts.count <= 2, !parts[0].isEmpty else { return nil }
            guard parts.count == 2 else { return (text, standard) }
            guard let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
            return (String(parts[0]), port)
        }
    }
}
