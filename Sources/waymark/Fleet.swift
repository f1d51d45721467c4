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
            subcommands: [Status.self, Send.self]
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

        @OptionGroup var connection: BrokerOptions

        @Flag(help: "Print a JSON array, one object per board, instead of lines.")
        var json = false

        func run() throws {
            guard let broker = connection.fleetBroker, let quiet = Duration(configText: connection.settle) else {
                throw ExitCode(2)
            }
            let topic = connection.topic
            let boards: [FleetBoard]
            do {
                boards = try Agent.fleetBoards(broker: broker, pattern: topic, settle: quiet)
            } catch {
                printError("waymark fleet status: \(error)")
                throw ExitCode(2)
            }
            let now = SystemClocks.wall()
            if json {
                print(FleetTable.json(boards, now: now))
            } else if boards.isEmpty {
                print("no board: nothing retained on \(topic) at \(connection.broker)")
            } else {
                for line in FleetTable.lines(boards, now: now) { print(line) }
            }
            if boards.isEmpty || boards.contains(where: \.needsAttention) { throw ExitCode(1) }
        }
    }
}

/// The broker, its credentials and TLS, and where the boards' statuses are: what every `waymark fleet` command
/// takes, as `[sinks.owntracks]` has them.
struct BrokerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The boards' broker: HOST or HOST:PORT ([IPv6]:PORT).", valueName: "host[:port]"))
    var broker: String

    @Option(help: ArgumentHelp("The status topics, MQTT wildcards allowed.", valueName: "pattern"))
    var topic = "owntracks/+/+/status"

    @Option(help: ArgumentHelp("Wait this long without a new status message.", valueName: "duration"))
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

    /// The broker as the agent's library takes it; nil when --broker does not read (``validate()`` says why).
    var fleetBroker: Agent.FleetBroker? {
        guard let (host, port) = Self.endpoint(broker, tls: caFile != nil) else { return nil }
        return Agent.FleetBroker(
            host: host,
            port: port,
            username: username,
            passwordFile: passwordFile,
            caFile: caFile,
            certFile: certFile,
            keyFile: keyFile
        )
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

extension Waymark.Fleet {
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send a command to every board whose device matches a glob, and print each board's answer.",
            discussion: """
                Reads the boards from their retained statuses (as waymark fleet status), sends ACTION to \
                TOPIC/cmd of each board whose device matches DEVICE_GLOB (a shell glob: 'bus-*'), QoS 1, and \
                waits up to --timeout for each answer on TOPIC/cmd/result. ACTION: reportLocation, setWaypoints \
                FILE (OwnTracks {"_type":"waypoints","waypoints":[...]} or a GeoJSON region file, told apart by \
                content), clearWaypoints, waypoints, dump, setConfiguration FILE (a whole Waymark TOML document). \
                One line per board: ok, refused with the board's message, or no answer within the timeout (the \
                command is queued in the board's session until it connects). A board runs only the actions its \
                [fleet] accept lists.

                Exit status: 0 every board answered ok; 1 some board refused or did not answer (or none matched); \
                2 the broker could not be used or the command not made.
                """
        )

        @Argument(help: ArgumentHelp("The boards' devices, a shell glob.", valueName: "device-glob"))
        var devices: String

        @Argument(help: ArgumentHelp("The command's action.", valueName: "action"))
        var action: String

        @Argument(help: ArgumentHelp("setWaypoints' regions or setConfiguration's TOML.", valueName: "file"))
        var file: String?

        @OptionGroup var connection: BrokerOptions

        @Option(help: ArgumentHelp("How long to wait for the boards' answers.", valueName: "duration"))
        var timeout = "10s"

        @Flag(help: "Print a JSON array of {device, ok, answered, message} instead of lines.")
        var json = false

        func validate() throws {
            guard let limit = Duration(configText: timeout), limit > .zero else {
                throw ValidationError("--timeout \(timeout): must be a duration such as \"10s\"")
            }
        }

        func run() throws {
            guard let broker = connection.fleetBroker, let quiet = Duration(configText: connection.settle),
                let limit = Duration(configText: timeout)
            else { throw ExitCode(2) }
            var contents: (name: String, bytes: [UInt8])?
            if let file {
                do {
                    contents = (file, try Files.contents(file))
                } catch {
                    printError("waymark fleet send: \(error)")
                    throw ExitCode(2)
                }
            }
            let answers: [FleetSend.Answer]
            do {
                answers = try Agent.fleetSend(
                    broker: broker,
                    pattern: connection.topic,
                    glob: devices,
                    action: action,
                    file: contents,
                    settle: quiet,
                    timeout: limit
                )
            } catch {
                printError("waymark fleet send: \(error)")
                throw ExitCode(2)
            }
            if json {
                print(FleetSend.json(answers))
            } else if answers.isEmpty {
                print("no board matches \(devices) on \(connection.topic) at \(connection.broker)")
            } else {
                for line in FleetSend.lines(answers) { print(line) }
            }
            if answers.isEmpty || answers.contains(where: { !$0.ok }) { throw ExitCode(1) }
        }
    }
}
