import WaymarkCore
import WaymarkGPSD

/// Every family of the metrics textfile (docs/operations.md, "Metrics for Prometheus"), in the order the file gives
/// them, each laid out once.
extension MetricFamily {
    static let buildInfo = MetricFamily(
        info: "waymark_build_info",
        "The agent's version and the libgps API it was built with; always 1.",
        ["version": Agent.release, "libgps": LibGPS.apiVersion]
    )
    static let startTime = MetricFamily(
        "waymark_start_time_seconds",
        .gauge,
        "When the agent started, in seconds since 1970 (event time)."
    )
    static let statusWrites = MetricFamily(
        "waymark_status_writes_total",
        .counter,
        "Status files written for waymark status."
    )
    static let cpu = MetricFamily(
        "waymark_cpu_seconds_total",
        .counter,
        "CPU time of the agent, user and system, all threads."
    )
    static let operationsCPU = MetricFamily(
        "waymark_operations_cpu_seconds_total",
        .counter,
        "CPU time of writing the status file and the metrics (this file's writes before this one)."
    )
    static let fixesReceived = MetricFamily(
        "waymark_fixes_received_total",
        .counter,
        "Fixes the receiver reported through gpsd."
    )
    /// By ``holdReasons``.
    static let fixesNotDelivered = MetricFamily(
        "waymark_fixes_not_delivered_total",
        .counter,
        "Fixes not delivered as location events, by reason.",
        by: "reason",
        holdReasons.map(\.rawValue)
    )
    static let holdReasons = HoldReason.allCases
    /// By every ``EventType``, so that each has a series from the start.
    static let events = MetricFamily(
        "waymark_events_total",
        .counter,
        "Events emitted, by type.",
        by: "type",
        EventType.allCases.map(\.rawValue)
    )
    static let reconnects = MetricFamily(
        "waymark_gpsd_reconnects_total",
        .counter,
        "Connections to gpsd made after the first."
    )
    static let connected = MetricFamily("waymark_gpsd_connected", .gauge, "Whether the agent is connected to gpsd.")
    static let fixMode = MetricFamily(
        "waymark_fix_mode",
        .gauge,
        "The receiver's fix mode: 0 not seen, 1 no fix, 2 2D, 3 3D."
    )
    static let satellitesUsed = MetricFamily(
        "waymark_satellites_used",
        .gauge,
        "Satellites used in the fix, as the receiver reports."
    )
    static let satellitesVisible = MetricFamily("waymark_satellites_visible", .gauge, "Satellites the receiver sees.")
    static let lastFixAge = MetricFamily(
        "waymark_last_fix_age_seconds",
        .gauge,
        "Seconds since the last usable fix."
    )
    static let paused = MetricFamily("waymark_paused", .gauge, "Whether location updates are paused.")
    /// By ``pauseReasons``.
    static let pauseReason = MetricFamily(
        "waymark_pause_reason",
        .gauge,
        "Why location updates are paused: 1 for the reason in effect.",
        by: "reason",
        pauseReasons
    )
    static let pauseReasons = ["stationary", "no_fix"]
    static let trips = MetricFamily("waymark_trips_total", .counter, "Trips ended.")
    static let odometer = MetricFamily(
        "waymark_odometer_meters",
        // A gauge: `waymark odometer set` can lower it, and a counter that falls reads as a reset to Prometheus.
        .gauge,
        "Metres driven: the odometer, the sum of the trips' distances, kept across restarts."
    )
    /// By ``drivingKinds``.
    static let drivingEvents = MetricFamily(
        "waymark_driving_events_total",
        .counter,
        "Driving events since the agent started, by kind.",
        by: "kind",
        drivingKinds
    )
    static let drivingKinds = DrivingReport.Kind.allCases.map(\.rawValue)
    static let regionCrossings = MetricFamily(
        "waymark_region_crossings_total",
        .counter,
        "Region entries and exits."
    )
    static let beaconSightings = MetricFamily(
        "waymark_beacon_sightings_total",
        .counter,
        "iBeacon advertisements heard through BlueZ."
    )
    /// By ``BeaconRejection``'s reasons.
    static let beaconRejected = MetricFamily(
        "waymark_beacon_rejected_total",
        .counter,
        "Apple advertisements heard that are no usable iBeacon frame, by reason.",
        by: "reason",
        []
    )
    static let beaconScanning = MetricFamily(
        "waymark_beacon_scanning",
        .gauge,
        "Whether BlueZ discovery runs for the beacon regions now."
    )
    static let beaconSourceFailures = MetricFamily(
        "waymark_beacon_source_failures_total",
        .counter,
        "Failures of the beacon source (bus, bluetoothd, adapter, discovery), each cause said once."
    )
    static let beaconAdvertising = MetricFamily(
        "waymark_beacon_advertising",
        .gauge,
        "Whether BlueZ has the board's iBeacon advertisement registered now."
    )
    static let beaconAdvertisingStarts = MetricFamily(
        "waymark_beacon_advertising_starts_total",
        .counter,
        "Registrations of the board's iBeacon advertisement that BlueZ accepted."
    )
    static let beaconAdvertisingFailures = MetricFamily(
        "waymark_beacon_advertising_failures_total",
        .counter,
        "Failures to advertise (bus, bluetoothd, adapter, BlueZ's refusals), each cause said once."
    )
    static let spoolEvents = MetricFamily("waymark_spool_events", .gauge, "Events in the spool.")
    static let spoolBytes = MetricFamily(
        "waymark_spool_bytes",
        .gauge,
        "Bytes the spool's events count against [spool] max_bytes."
    )
    /// By the event types dropped so far.
    static let spoolDrops = MetricFamily(
        "waymark_spool_dropped_events_total",
        .counter,
        "Events dropped to make room in a full spool, by type, since the spool was made.",
        by: "type",
        []
    )
    /// By the sinks' names.
    static let sinkUnsent = MetricFamily(
        "waymark_sink_unsent_events",
        .gauge,
        "Events a sink does not have yet, deferred ones included.",
        by: "sink",
        []
    )
    /// By the sinks' names.
    static let sinkOldestUnsentAge = MetricFamily(
        "waymark_sink_oldest_unsent_age_seconds",
        .gauge,
        "Age of the oldest event a sink does not have yet; 0 when it has everything.",
        by: "sink",
        []
    )
    static let spoolCommits = MetricFamily(
        "waymark_spool_commits_total",
        .counter,
        "Spool transactions committed (events, cursors, state)."
    )
    static let spoolCommitDuration = MetricFamily(
        "waymark_spool_commit_duration_seconds",
        "Time a spool commit took, its sync included.",
        bucketsOf: Histogram(bounds: Histogram.commitBounds)
    )
    /// By ``writtenTo``.
    static let writtenBytes = MetricFamily(
        "waymark_written_bytes_total",
        .counter,
        "Bytes written: event lines committed to the spool, lines appended to the logs, the metrics textfile.",
        by: "to",
        ["spool", "logs", "metrics"]
    )
    /// By the spool and the logs.
    static let fsyncs = MetricFamily(
        "waymark_fsyncs_total",
        .counter,
        "Syncs asked for: one per spool transaction (its WAL; checkpoints not counted), one per log file and new directory entry.",
        by: "to",
        ["spool", "logs"]
    )
    /// By ``alarmKinds``.
    static let alarmOpen = MetricFamily(
        "waymark_alarm_open",
        .gauge,
        "Health alarms open now, by alarm.",
        by: "alarm",
        alarmKinds.map(\.rawValue)
    )
    /// By ``alarmKinds``.
    static let alarmsRaised = MetricFamily(
        "waymark_alarms_raised_total",
        .counter,
        "Health alarms raised, by alarm.",
        by: "alarm",
        alarmKinds.map(\.rawValue)
    )
    /// Every ``Alarm/Kind``, made once (`allCases` makes its array at each use).
    static let alarmKinds = Alarm.Kind.allCases
}
