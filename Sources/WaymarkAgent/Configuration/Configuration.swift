import WaymarkCore
import WaymarkFormats

/// The agent's settings, as read from its TOML file (docs/configuration.md, "Configuration"); every setting has a
/// default.
///
/// `config/waymark.toml` documents every key with its default and unit.
public struct Configuration: Sendable, Equatable {
    /// `[agent]`: who the board is and where it keeps its files.
    public var agent: AgentSettings
    /// `[gpsd]`: how to reach gpsd.
    public var gpsd: GPSDSettings
    /// `[location]`: which fixes become `location` events.
    public var location: LocationSettings
    /// `[heading]`: `heading` events, true and magnetic.
    public var heading: HeadingSettings
    /// `[activity]`: automatic pauses, power saving while paused, trips.
    public var activity: ActivitySettings
    /// `[regions]`: region monitoring.
    public var regions: RegionsSettings
    /// `[deferred]`: when the committed events reach the sinks, in batches. ``RegionsSettings/flush`` sets its
    /// ``DeferralSettings/endsOnRegion``.
    public var deferred: DeferralSettings
    /// `[spool]`: the durable spool.
    public var spool: SpoolSettings
    /// `[sinks.file]`: the fleet-review logs.
    public var fileSink: FileSinkSettings
    /// `[sinks.traccar]`: positions to Traccar over its OsmAnd protocol.
    public var traccarSink = TraccarSinkSettings()
    /// `[sinks.owntracks]`: OwnTracks messages to an MQTT broker.
    public var ownTracksSink = OwnTracksSinkSettings()
    /// `[sinks.http]`: batches of events to the fleet's own HTTP endpoint.
    public var httpSink = HTTPSinkSettings()
    /// `[places]`: the places of `pause` and `trip` events.
    public var places: PlacesSettings
    /// `[metrics]`: the Prometheus textfile.
    public var metrics = MetricsSettings()
    /// `[health]`: when the health alarms start.
    public var health = HealthSettings()
    /// `[beacons]`: iBeacon regions, through BlueZ.
    public var beacons = BeaconsSettings()
    /// `[fleet]`: the board's status on the OwnTracks sink's broker.
    public var fleet = FleetSettings()
    /// `[driving]`: harsh acceleration, braking and cornering, and overspeed (docs/driving.md).
    public var driving = DrivingSettings()

    public init(
        agent: AgentSettings = .init(),
        gpsd: GPSDSettings = .init(),
        location: LocationSettings = .init(),
        heading: HeadingSettings = .init(),
        activity: ActivitySettings = .init(),
        regions: RegionsSettings = .init(),
        deferred: DeferralSettings = .init(),
        spool: SpoolSettings = .init(),
        fileSink: FileSinkSettings = .init(),
        places: PlacesSettings = .init()
    ) {
        self.agent = agent
        self.gpsd = gpsd
        self.location = location
        self.heading = heading
        self.activity = activity
        self.regions = regions
        self.deferred = deferred
        self.spool = spool
        self.fileSink = fileSink
        self.places = places
    }

    /// The names of the sinks the configuration enables, as their cursors are named in the spool.
    public var enabledSinks: [String] {
        [
            ("file", fileSink.enabled), ("traccar", traccarSink.uplink.enabled), ("owntracks", ownTracksSink.enabled),
            ("http", httpSink.uplink.enabled),
        ]
        .filter(\.1).map(\.0)
    }

    /// Reads a configuration file's text: the defaults, overridden by the keys the text sets.
    ///
    /// - Parameters:
    ///   - text: The TOML text.
    ///   - fileName: The name that every issue starts with, usually the file's last path component.
    /// - Throws: ``ConfigurationError`` with every problem in the text, ordered by line: each unknown section,
    ///   unknown key, value of the wrong type and value out of range. A TOML syntax error stops the reading and
    ///   is the only issue.
    public static func parse(_ text: String, fileName: String) throws(ConfigurationError) -> Configuration {
        try parseDocument(text, fileName: fileName).configuration
    }

    /// ``parse(_:fileName:)``, which also returns the document read: where the lines of its keys are.
    static func parseDocument(
        _ text: String,
        fileName: String
    ) throws(ConfigurationError) -> (configuration: Configuration, document: TOMLDocument) {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text, fileName: fileName)
        } catch {
            throw ConfigurationError(issues: [
                ConfigurationIssue(file: error.file, line: error.line, column: error.column, message: error.message)
            ])
        }
        let (configuration, issues) = settings(in: document.root, file: fileName)
        guard issues.isEmpty else { throw ConfigurationError(issues: issues) }
        return (configuration, document)
    }
}
