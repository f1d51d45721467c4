import WaymarkCore
import WaymarkFormats

extension AgentCore {
    /// What `waymark status` shows of the core at `now` (docs/operations.md, "waymark status"): times as event
    /// times (GPS time once a fix came), figures as they are.
    func writeStatus(into writer: inout JSONObjectWriter, now: MonotonicInstant, wallClock: Timestamp) {
        let status = pipeline.status
        writer.object("gpsd") { gpsd in
            gpsd.string("server", operating.line.server)
            gpsd.boolean("connected", status.gpsd == .connected)
            if let since = operating.connectedSince { gpsd.timestamp("since", since) }
            gpsd.integer("reconnects", Int64(operating.reconnects))
            gpsd.number("retry_in", operating.line.outage?.retryIn?.secondsValue)
        }
        if let device = status.device { writer.string("device", device) }
        writer.integer("fix_mode", Int64(status.fixMode.rawValue))
        if let used = status.satellitesUsed { writer.integer("satellites_used", Int64(used)) }
        if let visible = operating.satellitesVisible { writer.integer("satellites_visible", Int64(visible)) }
        let time = eventTime(at: now, wallClock: wallClock)
        if let fix = status.lastKnown {
            writer.object("last_fix") { last in
                last.timestamp("time", fix.time)
                last.number("age", Self.seconds(time.duration(since: fix.time)))
                last.number("lat", fix.latitude)
                last.number("lon", fix.longitude)
                last.number("h_acc", fix.horizontalAccuracy)
                if let place = places?.place(at: fix.coordinate, sites: pipeline.regions.lookup) {
                    last.string("place", place.description)
                }
            }
        }
        writer.object("activity") { activity in
            if let pause = pipeline.activity.pause {
                activity.string("state", "paused")
                activity.string("reason", pause.reason.rawValue)
                if let since = pause.since { activity.timestamp("since", since) }
            } else {
                activity.string("state", status.fixMode.hasFix ? "moving" : "waiting")
            }
            if let trip = pipeline.activity.tripSoFar {
                activity.object("trip") { summary in
                    summary.timestamp("since", trip.start)
                    summary.number("distance", Self.rounded(trip.distance))
                }
            }
        }
        writer.number("odometer_m", Self.rounded(pipeline.activity.odometer))
        writer.strings("regions", (pipeline.regions.insideIDs + (beacons?.insideIDs ?? [])).sorted())
        if let beacons {
            writer.object("beacons") { section in
                section.boolean("scanning", beacons.isScanning)
                section.objects("ranged", beacons.ranged) { entry, ranged in
                    entry.string("uuid", ranged.beacon.uuid.description)
                    entry.integer("major", Int64(ranged.beacon.major))
                    entry.integer("minor", Int64(ranged.beacon.minor))
                    entry.string("id", ranged.regionID)
                    entry.string("proximity", ranged.proximity.rawValue)
                    if ranged.accuracy >= 0 { entry.number("accuracy", Self.rounded(ranged.accuracy)) }
                    if ranged.rssi != 0 { entry.integer("rssi", Int64(ranged.rssi)) }
                    entry.number("heard_ago", Self.seconds(now - ranged.lastHeard))
                }
                section.integer("sightings", Int64(beaconSightings))
                section.integer("rejected", Int64(beaconRejections.values.reduce(0, +)))
                section.integer("failures", Int64(beaconFailures))
            }
        }
        if let advertising {
            writer.object("advertising") { section in
                section.boolean("active", advertising.isAdvertising)
                section.string("beacon", advertising.beacon.description)
                if let since = advertising.since { section.number("for", Self.seconds(now - since)) }
                if let wish = advertising.policy.lastChange {
                    section.boolean("wanted", wish.advertising)
                    section.string("reason", wish.reason.rawValue)
                    if let id = wish.regionID { section.string("id", id) }
                }
                section.integer("failures", Int64(advertising.failures))
                if let failure = advertising.lastFailure { section.string("error", failure) }
            }
        }
        if let source = pipeline.heading.lastSource { writer.string("heading_source", source.rawValue) }
        if let window = deferral.openWindow {
            writer.object("deferral") { deferred in
                deferred.number("open_for", Self.seconds(now - window.opened))
                deferred.integer("events", Int64(window.events))
                deferred.integer("bytes", Int64(window.bytes))
                deferred.number("distance", window.distance.map(Self.rounded))
            }
        }
        if let storage {
            writer.object("spool") { spool in
                spool.string("path", storage.spool.path)
                spool.integer("events", Int64(storage.spool.eventCount))
                spool.integer("bytes", storage.spool.usedBytes)
                spool.object("drops") { drops in
                    for (type, count) in storage.drops.sorted(by: { $0.key < $1.key }) {
                        drops.integer(named: type, Int64(count))
                    }
                }
            }
            writer.objects("sinks", storage.backlog()) { sink, backlog in
                sink.string("name", backlog.name)
                sink.integer("unsent", Int64(backlog.unsent))
                if let oldest = backlog.oldestUnsent {
                    sink.timestamp("oldest_unsent_time", oldest)
                    sink.number("oldest_unsent_age", Self.seconds(time.duration(since: oldest)))
                }
                sink.boolean("failing", backlog.failing)
            }
        }
        let alarms = health?.open.values.sorted { $0.since < $1.since } ?? []
        writer.objects("alarms", alarms) { entry, alarm in
            entry.string("code", alarm.key.kind.rawValue)
            if let subject = alarm.key.subject { entry.string("id", subject) }
            entry.string("message", alarm.message)
            entry.timestamp("since", time.advanced(by: .zero - (now - alarm.since)))
        }
        writer.number("clock_offset", health?.clockOffset.map(Self.seconds))
        writer.objects("errors", operating.recentErrors) { entry, error in
            entry.timestamp("time", error.time)
            entry.string("code", error.code)
            if let subject = error.subject { entry.string("id", subject) }
            entry.string("message", error.message)
        }
    }

    /// The core's metric families (docs/operations.md, "Metrics for Prometheus"), at `now`; `metricsBytes` is what
    /// the textfile took so far.
    func writeMetrics(
        into metrics: inout MetricsText,
        metricsBytes: Int64,
        now: MonotonicInstant,
        wallClock: Timestamp
    ) {
        let counters = pipeline.counters
        let status = pipeline.status
        let reasons = MetricFamily.holdReasons
        metrics.append(.fixesReceived, Double(reasons.reduce(counters.delivered) { $0 + counters[$1] }))
        metrics.append(.fixesNotDelivered) { Double(counters[reasons[$0]]) }
        metrics.append(.events) { Double(operating.eventsByType[$0]) }
        metrics.append(.reconnects, Double(operating.reconnects))
        metrics.append(.connected, status.gpsd == .connected ? 1 : 0)
        metrics.append(.fixMode, Double(status.fixMode.rawValue))
        if let used = status.satellitesUsed { metrics.append(.satellitesUsed, Double(used)) }
        if let visible = operating.satellitesVisible { metrics.append(.satellitesVisible, Double(visible)) }
        let time = eventTime(at: now, wallClock: wallClock)
        if let fix = status.lastKnown { metrics.append(.lastFixAge, Self.seconds(time.duration(since: fix.time))) }
        let pause = pipeline.activity.pause
        metrics.append(.paused, pause == nil ? 0 : 1)
        metrics.append(.pauseReason) { pause?.reason.rawValue == MetricFamily.pauseReasons[$0] ? 1 : 0 }
        metrics.append(.trips, Double(operating.events(.trip)))
        metrics.append(.odometer, Self.rounded(pipeline.activity.odometer))
        metrics.append(.drivingEvents) { Double(counters["driving_\(MetricFamily.drivingKinds[$0])"]) }
        metrics.append(.regionCrossings, Double(operating.events(.region)))
        if let beacons {
            metrics.append(.beaconSightings, Double(beaconSightings))
            metrics.append(
                .beaconRejected,
                labelled: beaconRejections.map { ($0.key.reason, Double($0.value)) }.sorted { $0.0 < $1.0 }
            )
            metrics.append(.beaconScanning, beacons.isScanning ? 1 : 0)
            metrics.append(.beaconSourceFailures, Double(beaconFailures))
        }
        if let advertising {
            metrics.append(.beaconAdvertising, advertising.isAdvertising ? 1 : 0)
            metrics.append(.beaconAdvertisingStarts, Double(advertising.starts))
            metrics.append(.beaconAdvertisingFailures, Double(advertising.failures))
        }
        if let storage {
            metrics.append(.spoolEvents, Double(storage.spool.eventCount))
            metrics.append(.spoolBytes, Double(storage.spool.usedBytes))
            metrics.append(
                .spoolDrops,
                labelled: storage.drops.sorted { $0.key < $1.key }.map { ($0.key, Double($0.value)) }
            )
            let backlog = storage.backlog()
            metrics.append(.sinkUnsent, labelled: backlog.map { ($0.name, Double($0.unsent)) })
            metrics.append(
                .sinkOldestUnsentAge,
                labelled: backlog.map {
                    ($0.name, $0.oldestUnsent.map { Self.seconds(time.duration(since: $0)) } ?? 0)
                }
            )
            metrics.append(.spoolCommits, Double(storage.transactions))
            metrics.append(.spoolCommitDuration, storage.commitDurations)
            let sinkWrites = storage.sinkWrites
            let written = [storage.bytesCommitted, sinkWrites.bytes, metricsBytes]
            metrics.append(.writtenBytes) { Double(written[$0]) }
            metrics.append(.fsyncs) { Double($0 == 0 ? storage.transactions : sinkWrites.syncs) }
        }
        let kinds = MetricFamily.alarmKinds
        let open = health?.open
        metrics.append(.alarmOpen) { index in Double(open?.keys.count { $0.kind == kinds[index] } ?? 0) }
        metrics.append(.alarmsRaised) { Double(health?.raised[kinds[$0]] ?? 0) }
    }

    private static func seconds(_ duration: Duration) -> Double { (duration.secondsValue * 1000).rounded() / 1000 }

    private static func rounded(_ metres: Double) -> Double { (metres * 10).rounded() / 10 }
}
