import WaymarkFormats

extension Configuration {
    /// The sections of the file, in the order that messages list them. A new section is one line here and a
    /// `read(from:)` in its settings type that reads each of its keys with a ``ValueRule``.
    static let sections: [ConfigurationSection] = [
        ConfigurationSection("agent") { section, configuration in configuration.agent.read(from: &section) },
        ConfigurationSection("gpsd") { section, configuration in configuration.gpsd.read(from: &section) },
        ConfigurationSection("location") { section, configuration in configuration.location.read(from: &section) },
        ConfigurationSection("heading") { section, configuration in configuration.heading.read(from: &section) },
        ConfigurationSection("activity") { section, configuration in configuration.activity.read(from: &section) },
        ConfigurationSection("regions") { section, configuration in configuration.regions.read(from: &section) },
        ConfigurationSection("deferred") { section, configuration in configuration.deferred.read(from: &section) },
        ConfigurationSection("spool") { section, configuration in configuration.spool.read(from: &section) },
        ConfigurationSection("sinks.file") { section, configuration in configuration.fileSink.read(from: &section) },
        ConfigurationSection("sinks.traccar") { section, configuration in
            configuration.traccarSink.read(from: &section)
        },
        ConfigurationSection("sinks.owntracks") { section, configuration in
            configuration.ownTracksSink.read(from: &section)
        },
        ConfigurationSection("sinks.http") { section, configuration in configuration.httpSink.read(from: &section) },
        ConfigurationSection("places") { section, configuration in configuration.places.read(from: &section) },
        ConfigurationSection("metrics") { section, configuration in configuration.metrics.read(from: &section) },
        ConfigurationSection("health") { section, configuration in configuration.health.read(from: &section) },
        ConfigurationSection("beacons") { section, configuration in configuration.beacons.read(from: &section) },
        ConfigurationSection("beacons.advertise") { section, configuration in
            configuration.beacons.advertise.read(from: &section)
        },
        ConfigurationSection("fleet") { section, configuration in configuration.fleet.read(from: &section) },
        ConfigurationSection("driving") { section, configuration in configuration.driving.read(from: &section) },
    ]

    /// Reads `sections` of a document over the defaults; returns the configuration and every problem found,
    /// ordered by line. Settings that follow from other sections' keys are set once all are read, whatever
    /// the order of the sections in the file: `[deferred]` ends its windows on a region event exactly when
    /// `[regions] flush = "immediate"`.
    static func settings(
        in root: TOMLTable,
        file: String,
        sections: [ConfigurationSection] = Configuration.sections
    ) -> (Configuration, [ConfigurationIssue]) {
        var reading = Reading(file: file, sections: sections)
        visit(root, at: [], line: nil, into: &reading)
        reading.configuration.deferred.endsOnRegion = reading.configuration.regions.flush == .immediate
        // The fleet's status goes to the OwnTracks sink's broker: it needs one, sink enabled or not.
        if reading.configuration.fleet.enabled && reading.configuration.ownTracksSink.host.isEmpty,
            case .table(let fleet) = root["fleet"]?.value
        {
            reading.issues.append(
                ConfigurationIssue(
                    file: file,
                    line: fleet["enabled"]?.line,
                    section: "fleet",
                    key: "enabled",
                    message: "missing [sinks.owntracks] host: the fleet's status goes to the OwnTracks sink's "
                        + "broker, with its topic and credentials, whether the sink is enabled or not"
                )
            )
        }
        let ordered = reading.issues.enumerated().sorted { first, second in
            (first.element.line ?? 0, first.offset) < (second.element.line ?? 0, second.offset)
        }
        return (reading.configuration, ordered.map(\.element))
    }

    /// Reads the table at `path`, written at `line`: the root, a section, a table that holds sections (`sinks`
    /// holds `sinks.file`), a table only implied by a longer header, or an unknown section.
    private static func visit(_ table: TOMLTable, at path: [String], line: Int?, into reading: inout Reading) {
        let (file, sections) = (reading.file, reading.sections)
        let name = path.map(TOMLValue.key).joined(separator: ".")
        let sectionsWithin = sections.filter { $0.path.count > path.count && $0.path.starts(with: path) }
        var tablesWithin: [TOMLEntry] = []
        if let section = sections.first(where: { $0.path == path }) {
            tablesWithin = table.entries.filter { entry in
                sectionsWithin.contains { $0.path[path.count] == entry.key } && entry.value.kind == .table
            }
            var reader = SectionReader(file: file, section: name, table: table)
            section.read(&reader, &reading.configuration)
            reader.rejectUnknownKeys(except: Set(tablesWithin.map(\.key)))
            reading.issues += reader.issues
        } else if path.isEmpty || !sectionsWithin.isEmpty || table.isImplied {
            tablesWithin = table.entries.filter { $0.value.kind == .table }
            for entry in table.entries where entry.value.kind != .table {
                let problem =
                    if let section = sections.first(where: { $0.path == path + [entry.key] }) {
                        "a section, to be written as [\(section.name)], not \(entry.value.kind.noun)"
                    } else if path.isEmpty {
                        "key outside any section; allowed sections are \(names(of: sections))"
                    } else {
                        "unknown key; [\(name)] holds only the sections \(names(of: sectionsWithin))"
                    }
                reading.issues.append(
                    ConfigurationIssue(
                        file: file,
                        line: entry.line,
                        section: path.isEmpty ? nil : name,
                        key: TOMLValue.key(entry.key),
                        message: problem
                    )
                )
            }
        } else {
            reading.issues.append(
                ConfigurationIssue(
                    file: file,
                    line: line,
                    section: name,
                    message: "unknown section; allowed sections are \(names(of: sections))"
                )
            )
        }
        for entry in tablesWithin {
            if case .table(let child) = entry.value {
                visit(child, at: path + [entry.key], line: entry.line, into: &reading)
            }
        }
    }

    /// What a reading carries through the tables of a document.
    private struct Reading {
        let file: String
        let sections: [ConfigurationSection]
        var configuration = Configuration()
        var issues: [ConfigurationIssue] = []
    }

    private static func names(of sections: [ConfigurationSection]) -> String {
        sections.map(\.name).joined(separator: ", ")
    }
}
