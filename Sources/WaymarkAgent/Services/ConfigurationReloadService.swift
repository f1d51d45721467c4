import Logging
import ServiceLifecycle
import UnixSignals
import WaymarkClocks
import WaymarkGPSD
import WaymarkSystem

/// Reloads the configuration file on SIGHUP (docs/configuration.md, "Configuration"): a valid file is applied, an
/// invalid one is rejected with one log line per problem and the running settings are kept.
struct ConfigurationReloadService: Service {
    private let source: ConfigurationSource
    private let connection: GPSDConnection
    private let locationService: LocationService
    private let regionFiles: RegionFileService
    private let notifier: SystemdNotifier?
    private let logger: Logger

    /// What a reload does not change, said in its log line and in a remote configuration's answer: these
    /// settings are read once, when the agent starts (the advertiser's thread and connection among them).
    static let appliedAtNextStart =
        "the rest of [agent], [spool], the sinks ([sinks.file], [sinks.traccar], [sinks.http], [sinks.owntracks]) and "
        + "[beacons.advertise] apply at the next start"

    init(
        source: ConfigurationSource,
        connection: GPSDConnection,
        locationService: LocationService,
        regionFiles: RegionFileService,
        notifier: SystemdNotifier? = nil,
        logger: Logger
    ) {
        self.source = source
        self.connection = connection
        self.locationService = locationService
        self.regionFiles = regionFiles
        self.notifier = notifier
        self.logger = logger
    }

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            reload()
        }
    }

    /// Reloads, between `RELOADING=1` and `READY=1` to systemd (`systemctl reload` waits for them).
    func reload() {
        let microseconds = SystemClocks.monotonic().nanoseconds / 1000
        notifier?.sendOnceReady(["RELOADING=1", "MONOTONIC_USEC=\(microseconds)"])
        defer { notifier?.sendOnceReady(["READY=1"]) }
        let file = source.fileDescription
        let configuration: Configuration
        do {
            configuration = try source.load()
        } catch {
            for issue in error.issues { logger.error("\(issue.description)") }
            logger.error("SIGHUP: \(file) rejected, the running configuration is kept")
            return
        }
        locationService.apply(configuration)
        regionFiles.use(configuration.regions)
        let gpsd = GPSDConnection.Configuration(configuration.gpsd, keeping: connection.configuration)
        if gpsd == connection.configuration {
            logger.info(
                "SIGHUP: \(file) reloaded; [location], [heading], [activity], [regions], [deferred] and [agent] device_id apply at once, the gpsd connection is unchanged; \(Self.appliedAtNextStart)"
            )
        } else {
            logger.notice("SIGHUP: \(file) reloaded; reconnecting to gpsd at \(gpsd.server)")
            connection.reconfigure(gpsd)
        }
    }
}

extension GPSDConnection.Configuration {
    /// The connection settings of `[gpsd]`, with the tuning that the file does not set kept from `current`.
    init(_ settings: GPSDSettings, keeping current: GPSDConnection.Configuration = .init()) {
        self = current
        host = settings.host
        port = settings.port
        device = settings.device
        reconnectMinimum = settings.reconnectMinimum
        reconnectMaximum = settings.reconnectMaximum
    }
}
