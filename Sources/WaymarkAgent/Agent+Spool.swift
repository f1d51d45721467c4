import WaymarkCore
import WaymarkStore
import WaymarkUplink

extension Agent {
    /// The spool of `[agent] state_dir`, opened for reading beside a running agent.
    public static func openSpool(_ configuration: Configuration) throws(SpoolError) -> Spool {
        let directory = configuration.agent.stateDirectory
        return try Spool(
            path: (directory.hasSuffix("/") ? directory : directory + "/") + Spool.fileName,
            readOnly: true
        )
    }

    /// `waymark spool stats`: one JSON object of what the spool holds, what each sink has not confirmed yet,
    /// and what was dropped.
    public static func spoolStatistics(_ configuration: Configuration) throws(SpoolError) -> String {
        let spool = try openSpool(configuration)
        let stats = try spool.stats(sinks: configuration.enabledSinks)
        var fields: [String] = [
            "\"path\":\(quoted(stats.path))", "\"events\":\(stats.events)",
        ]
        if let first = stats.firstSeq { fields.append("\"first_seq\":\(first)") }
        fields += [
            "\"last_seq\":\(stats.lastSeq)", "\"bytes\":\(stats.bytes)",
            "\"max_bytes\":\(configuration.spool.maxBytes.bytes)",
            "\"file_bytes\":\(stats.fileBytes)", "\"wal_bytes\":\(stats.walBytes)",
        ]
        let drops = stats.drops.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\($0.value)" }
        fields.append("\"drops\":{\(drops.joined(separator: ","))}")
        // The odometer as last committed: what a restart goes on from.
        if let odometer = try spool.load().odometer { fields.append("\"odometer_m\":\(odometer)") }
        let sinks = stats.sinks.map { sink -> String in
            var members = ["\"name\":\(quoted(sink.name))", "\"cursor\":\(sink.cursor)", "\"unsent\":\(sink.unsent)"]
            if let seq = sink.oldestUnsentSeq { members.append("\"oldest_unsent_seq\":\(seq)") }
            if let time = sink.oldestUnsentTime { members.append("\"oldest_unsent_time\":\"\(time.iso8601)\"") }
            members.append("\"quarantined\":\(sink.quarantined)")
            return "{" + members.joined(separator: ",") + "}"
        }
        fields.append("\"sinks\":[\(sinks.joined(separator: ","))]")
        // The newest refusals, with the servers' answers: `waymark spool export --quarantined` has them all.
        let quarantine = try spool.quarantined().suffix(Self.quarantineListed).map { item -> String in
            let type = item.event.kind.description
            return
                "{\"sink\":\(quoted(item.sink)),\"seq\":\(item.event.seq),\"type\":\(quoted(type)),"
                + "\"status\":\(item.status),\"answer\":\(quoted(item.answer)),"
                + "\"refused_at\":\"\(item.refusedAt.iso8601)\"}"
        }
        fields.append("\"quarantine\":[\(quarantine.joined(separator: ","))]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The quarantined events `waymark spool stats` lists, the newest.
    static let quarantineListed = 20

    /// `waymark spool export`: the events from `first` to `last` (and from `since` on) in `format`, written
    /// through `write` in chunks; with `quarantined`, the events the sinks' servers refused instead.
    public static func exportSpool(
        _ configuration: Configuration,
        from first: UInt64?,
        through last: UInt64?,
        since: Timestamp?,
        format: ExportFormat,
        quarantined: Bool = false,
        write: ([UInt8]) -> Void
    ) throws {
        let spool = try openSpool(configuration)
        var exporter = Exporter(format: format)
        var buffer: [UInt8] = []
        exporter.begin(into: &buffer)
        let each: ((StoredEvent) throws -> Void) throws -> Void = { body in
            guard quarantined else {
                return try spool.forEach(from: first ?? 0, through: last ?? UInt64(Int64.max), since: since, body)
            }
            // Of every sink, in seq order; an event two sinks refused once.
            var seen: Set<UInt64> = []
            let events = try spool.quarantined().map(\.event).sorted { $0.seq < $1.seq }
            for event in events where seen.insert(event.seq).inserted {
                guard event.seq >= first ?? 0, event.seq <= last ?? .max, event.time >= since ?? event.time else {
                    continue
                }
                try body(event)
            }
        }
        try each { event in
            exporter.add(try EventLine(event.line), raw: event.line, into: &buffer)
            if buffer.count >= 1 << 16 {
                write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        exporter.end(into: &buffer)
        write(buffer)
    }

    /// `waymark trips list`: the `trip` events in the spool from `since` on, oldest first, each decoded and as
    /// its JSON line.
    public static func trips(_ configuration: Configuration, since: Timestamp?) throws -> [(EventLine, String)] {
        var trips: [(EventLine, String)] = []
        try openSpool(configuration).forEach(since: since, kinds: [.trip]) { event in
            trips.append((try EventLine(event.line), String(decoding: event.line, as: UTF8.self)))
        }
        return trips
    }

    private static func quoted(_ text: String) -> String { text.debugDescription }
}
