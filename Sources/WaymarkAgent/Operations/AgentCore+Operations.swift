import WaymarkCore
import WaymarkFormats

extension AgentCore {
    /// What `waymark status` shows of the core at `now` (README, "waymark status"): times as event times (GPS
    /// time once a fix came), figures as they are.
    func statusMembers(now: MonotonicInstant, wallClock: Timestamp) -> [(key: String, value: JSONValue)] {
        let status = pipeline.status
        var members: [(key: String, value: JSONValue)] = []
        var gpsd: [(key: String, value: JSONValue)] = [
            ("server", .string(operating.line.server)), ("connected", .boolean(status.gpsd == .connected)),
        ]
        if let since = operating.connectedSince { gpsd.append(("since", .string(since.iso8601))) }
        gpsd.append(("reconnects", .number(Double(operating.reconnects))))
        if let retry = operating.line.outage?.retryIn { gpsd.append(("retry_in", .number(retry.secondsValue))) }
        members.append(("gpsd", .object(gpsd)))
        if let device = status.device { members.append(("device", .string(device))) }
        members.append(("fix_mode", .number(Double(status.fixMode.rawValue))))
        if let used = status.satellitesUsed { members.append(("satellites_used", .number(Double(used)))) }
        if let visible = operating.satellitesVisible {
            members.append(("satellites_visible", .number(Double(visible))))
        }
        let time = eventTime(at: now, wallClock: wallClock)
        if let fix = status.lastKnown {
            var last: [(key: String, value: JSONValue)] = [
                ("time", .string(fix.time.iso8601)), ("age", .number(Self.seconds(time.duration(since: fix.time)))),
                ("lat", .number(fix.latitude)), ("lon", .number(fix.longitude)),
            ]
            if let accuracy = fix.horizontalAccuracy { last.append(("h_acc", .number(accuracy))) }
            if let place = places?.place(at: fix.coordinate, sites: pipeline.regions.lookup) {
                last.append(("place", .string(place.description)))
            }
            members.append(("last_fix", .object(last)))
        }
        var activity: [(key: String, value: JSONValue)] = []
        if let pause = pipeline.activity.pause {
            activity = [("state", .string("paused")), ("reason", .string(pause.reason.rawValue))]
            if let since = pause.since { activity.append(("since", .string(since.iso8601))) }
        } else {
            activity = [("state", .string(status.fixMode.hasFix ? "moving" : "waiting"))]
        }
        if let trip = pipeline.activity.tripSoFar {
            activity.append(
                (
                    "trip",
                    .object([
                        ("since", .string(trip.start.iso8601)), ("distance", .number(Self.rounded(trip.distance))),
                    ])
                )
            )
        }
        members.append(("activity", .object(activity)))
        members.append(("regions", .array(pipeline.regions.insideIDs.map(JSONValue.string))))
        if let source = pipeline.heading.lastSource { members.append(("heading_source", .string(source.rawValue))) }
        if let window = deferral.openWindow {
            var deferred: [(key: String, value: JSONValue)] = [
                ("open_for", .number(Self.seconds(now - window.opened))), ("events", .number(Double(window.events))),
                ("bytes", .number(Double(window.bytes))),
            ]
            if let distance = window.distance { deferred.append(("distance", .number(Self.rounded(distance)))) }
            members.append(("deferral", .object(deferred)))
        }
        if let storage {
            var spool: [(key: String, value: JSONValue)] = [("path", .string(storage.spool.path))]
            spool.append(("events", .number(Double(storage.spool.eventCount))))
            spool.append(("bytes", .number(Double(storage.spool.usedBytes))))
            let drops = storage.drops.sorted { $0.key < $1.key }.map {
                (key: $0.key, value: JSONValue.number(Double($0.value)))
            }
            spool.append(("drops", .object(drops)))
            members.append(("spool", .object(spool)))
            let sinks = storage.backlog().map { backlog -> JSONValue in
                var sink: [(key: String, value: JSONValue)] = [
                    ("name", .string(backlog.name)), ("unsent", .number(Double(backlog.unsent))),
                ]
                if let oldest = backlog.oldestUnsent {
                    sink.append(("oldest_unsent_time", .string(oldest.iso8601)))
                    sink.append(("oldest_unsent_age", .number(Self.seconds(time.duration(since: oldest)))))
                }
                sink.append(("failing", .boolean(backlog.failing)))
                return .object(sink)
            }
            members.append(("sinks", .array(sinks)))
        }
        let alarms = (health?.open.values.sorted { $0.since < $1.since } ?? []).map { alarm -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [("code", .string(alarm.key.kind.rawValue))]
            if let subject = alarm.key.subject { members.append(("id", .string(subject))) }
            members += [
                ("message", .string(alarm.message)),
                ("since", .string(time.advanced(by: .zero - (now - alarm.since)).iso8601)),
            ]
            return .object(members)
        }
        members.append(("alarms", .array(alarms)))
        if let offset = health?.clockOffset { members.append(("clock_offset", .number(Self.seconds(offset)))) }
        let errors = operating.recentErrors.map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("time", .string(entry.time.iso8601)), ("code", .string(entry.code)),
            ]
            if let subject = entry.subject { members.append(("id", .string(subject))) }
            members.append(("message", .string(entry.message)))
            return .object(members)
        }
        members.append(("errors", .array(errors)))
        return members
    }

    /// The core's metric families (README, "Metrics"), at `now`; `metricsBytes` is what the textfile took so far.
    func writeMetrics(
        into metrics: inout MetricsText,
        metricsBytes: Int64,
        now: MonotonicInstant,
        wallClock: Timestamp
    ) {
        let counters = pipeline.counters
        let status = pipeline.status
        let holds = HoldReason.allCases.map { ($0.rawValue, Double(counters[$0.rawValue])) }
        metrics.counter(
            "waymark_fixes_received_total",
            "Fixes the receiver reported through gpsd.",
            Double(counters["location"]) + holds.reduce(0) { $0 + $1.1 }
        )
        metrics.counter(
            "waymark_fixes_not_delivered_total",
            "Fixes not delivered as location events, by reason.",
            by: "reason",
            holds
        )
        metrics.counter(
            "waymark_events_total",
            "Events emitted, by type.",
            by: "type",
            Self.eventTypes.map { ($0, Double(operating.eventsByType[$0] ?? 0)) }
        )
        metrics.counter(
            "waymark_gpsd_reconnects_total",
            "Connections to gpsd made after the first.",
            Double(operating.reconnects)
        )
        metrics.gauge(
            "waymark_gpsd_connected",
            "Whether the agent is connected to gpsd.",
            status.gpsd == .connected ? 1 : 0
        )
        metrics.gauge(
            "waymark_fix_mode",
            "The receiver's fix mode: 0 not seen, 1 no fix, 2 2D, 3 3D.",
            Double(status.fixMode.rawValue)
        )
        if let used = status.satellitesUsed {
            metrics.gauge(
                "waymark_satellites_used",
                "Satellites used in the fix, as the receiver reports.",
                Double(used)
            )
        }
        if let visible = operating.satellitesVisible {
            metrics.gauge("waymark_satellites_visible", "Satellites the receiver sees.", Double(visible))
        }
        let time = eventTime(at: now, wallClock: wallClock)
        if let fix = status.lastKnown {
            metrics.gauge(
                "waymark_last_fix_age_seconds",
                "Seconds since the last usable fix.",
                Self.seconds(time.duration(since: fix.time))
            )
        }
        let pause = pipeline.activity.pause
        metrics.gauge("waymark_paused", "Whether location updates are paused.", pause == nil ? 0 : 1)
        metrics.gauge(
            "waymark_pause_reason",
            "Why location updates are paused: 1 for the reason in effect.",
            by: "reason",
            ["stationary", "no_fix"].map { ($0, pause?.reason.rawValue == $0 ? 1 : 0) }
        )
        metrics.counter("waymark_trips_total", "Trips ended.", Double(operating.eventsByType["trip"] ?? 0))
        metrics.counter(
            "waymark_region_crossings_total",
            "Region entries and exits.",
            Double(operating.eventsByType["region"] ?? 0)
        )
        if let storage {
            metrics.gauge("waymark_spool_events", "Events in the spool.", Double(storage.spool.eventCount))
            metrics.gauge(
                "waymark_spool_bytes",
                "Bytes the spool's events count against [spool] max_bytes.",
                Double(storage.spool.usedBytes)
            )
            metrics.counter(
                "waymark_spool_dropped_events_total",
                "Events dropped to make room in a full spool, by type, since the spool was made.",
                by: "type",
                storage.drops.sorted { $0.key < $1.key }.map { ($0.key, Double($0.value)) }
            )
            let backlog = storage.backlog()
            metrics.gauge(
                "waymark_sink_unsent_events",
                "Events a sink does not have yet, deferred ones included.",
                by: "sink",
                backlog.map { ($0.name, Double($0.unsent)) }
            )
            metrics.gauge(
                "waymark_sink_oldest_unsent_age_seconds",
                "Age of the oldest event a sink does not have yet; 0 when it has everything.",
                by: "sink",
                backlog.map { ($0.name, $0.oldestUnsent.map { Self.seconds(time.duration(since: $0)) } ?? 0) }
            )
            metrics.counter(
                "waymark_spool_commits_total",
                "Spool transactions committed (events, cursors, state).",
                Double(storage.transactions)
            )
            metrics.histogram(
                "waymark_spool_commit_duration_seconds",
                "Time a spool commit took, its sync included.",
                storage.commitDurations
            )
            let sinkWrites = storage.sinkWrites
            metrics.counter(
                "waymark_written_bytes_total",
                "Bytes written: event lines committed to the spool, lines appended to the logs, the metrics textfile.",
                by: "to",
                [
                    ("spool", Double(storage.bytesCommitted)), ("logs", Double(sinkWrites.bytes)),
                    ("metrics", Double(metricsBytes)),
                ]
            )
            metrics.counter(
                "waymark_fsyncs_total",
                "Syncs asked for: one per spool transaction (its WAL; checkpoints not counted), one per log file and new directory entry.",
                by: "to",
                [("spool", Double(storage.transactions)), ("logs", Double(sinkWrites.syncs))]
            )
        }
        let open = health?.open.values.map(\.key.kind) ?? []
        metrics.gauge(
            "waymark_alarm_open",
            "Health alarms open now, by alarm.",
            by: "alarm",
            Alarm.Kind.allCases.map { kind in (kind.rawValue, Double(open.filter { $0 == kind }.count)) }
        )
        metrics.counter(
            "waymark_alarms_raised_total",
            "Health alarms raised, by alarm.",
            by: "alarm",
            Alarm.Kind.allCases.map { ($0.rawValue, Double(health?.raised[$0] ?? 0)) }
        )
    }

    /// Every event `type`, so that each has a series from the start.
    static let eventTypes = [
        "location", "heading", "region", "region_state", "pause", "resume", "trip", "deferred_finished", "status",
        "error", "alarm_cleared",
    ]

    private static func seconds(_ duration: Duration) -> Double { (duration.secondsValue * 1000).rounded() / 1000 }

    private static func rounded(_ metres: Double) -> Double { (metres * 10).rounded() / 10 }
}
