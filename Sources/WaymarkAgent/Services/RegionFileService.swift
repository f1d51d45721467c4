import Logging
import ServiceLifecycle
import Synchronization
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// Watches `[regions] file`: loads it at start and whenever it changes and settles (checked every second; see
/// ``RegionFileWatch``), and hands each good version to the location service, with the fleet's remote regions
/// (`setWaypoints`, docs/fleet.md) beside it. A file with problems, or one that
/// exists but cannot be read, is rejected with one log line per problem, and the last good set stays monitored;
/// the location service raises `region_file_rejected` until a version loads. A missing file is a warning only
/// (there may be no regions yet). Without a file it stays asleep (a parked agent saving power must not wake every
/// second for nothing); a reload that names one loads it at once.
final class RegionFileService: Service, Sendable {
    static let pollInterval = Duration.seconds(1)

    private let locationService: LocationService
    private let logger: Logger
    private let watched: Mutex<Watched>
    /// One ``check()`` at a time: the watch's task and the fleet's thread (a `setWaypoints`) both check, and a
    /// set read earlier must not be monitored after one read later.
    private let checking = Mutex(())
    /// Whether a version of a region file loaded since the start: until then a rejected file leaves no region
    /// monitored.
    private let loadedOnce = Atomic<Bool>(false)
    /// Wakes an idle ``run()`` when a reload names a file.
    private let fileNamed: AsyncStream<Void>
    private let nameFile: AsyncStream<Void>.Continuation

    private struct Watched {
        var source: RegionSource?
        var watch = RegionFileWatch()
        /// The operator's regions last loaded.
        var entries: [RegionFile.Entry] = []
        /// The fleet's remote regions: written by this agent alone, atomically, so read at once when they change.
        var remote: RegionSource?
        var remoteVersion: RegionSource.Version?
        var remoteEntries: [RegionFile.Entry] = []
    }

    /// - Parameter remotePath: the fleet's remote region set (``FleetCommands/regionsPath(stateDirectory:)``), or
    ///   nil without `[fleet]`.
    init(settings: RegionsSettings, remotePath: String? = nil, locationService: LocationService, logger: Logger) {
        self.locationService = locationService
        self.logger = logger
        var initial = Watched(source: settings.file.map { RegionSource(path: $0, settings: settings) })
        initial.remote = remotePath.map { RegionSource(path: $0, settings: settings) }
        watched = Mutex(initial)
        (fileNamed, nameFile) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Watches the file of reloaded `[regions]` settings (a new path, or new limits: loaded again).
    func use(_ settings: RegionsSettings) {
        let source = settings.file.map { RegionSource(path: $0, settings: settings) }
        let changed = watched.withLock { watched in
            guard watched.source?.path != source?.path || watched.source?.limits != source?.limits else {
                return false
            }
            var renewed = Watched(source: source)
            renewed.remote = watched.remote.map { RegionSource(path: $0.path, settings: settings) }
            watched = renewed
            return true
        }
        if changed {
            locationService.regionFile(.named(source?.path))
            check()
            nameFile.yield()
        }
    }

    func run() async {
        await cancelWhenGracefulShutdown {
            var reloads = self.fileNamed.makeAsyncIterator()
            while !Task.isCancelled {
                self.check()
                if self.watched.withLock({ $0.source != nil }) {
                    try? await GlobalExecutor.process.sleep(for: Self.pollInterval)
                } else {
                    await reloads.next()
                }
            }
        }
    }

    /// Loads the file when it is new, or changed and settled since the last look (``RegionFileWatch``), and the
    /// remote regions when they changed.
    func check() {
        checking.withLock { _ in checkOnce() }
    }

    private func checkOnce() {
        let remoteChanged = checkRemote()
        let (action, source) = watched.withLock { watched -> (RegionFileWatch.Action, RegionSource?) in
            guard let source = watched.source else { return (.nothing, nil) }
            return (watched.watch.look(source.version()), source)
        }
        guard let source else {
            if remoteChanged { applyBoth() }
            return
        }
        if remoteChanged, action != .load { applyBoth() }
        switch action {
        case .nothing:
            return
        case .missing(let reason):
            logger.warning("\(source.path): \(reason); \(kept)")
        case .unreadable(let reason):
            let line = "\(source.path): \(reason)"
            logger.error("\(line); \(kept)")
            locationService.regionFile(.rejected(source.path, problems: [line]))
        case .load:
            switch source.entries() {
            case .success(let entries):
                watched.withLock { $0.entries = entries }
                let loaded = applyBoth()
                logger.info("\(source.path): \(loaded.count) regions loaded")
                locationService.regionFile(.loaded(source.path))
                loadedOnce.store(true, ordering: .relaxed)
            case .failure(let failure):
                // The operator's last good regions stay; the remote ones changed all the same.
                if remoteChanged { applyBoth() }
                for line in failure.lines { logger.error("\(line)") }
                logger.error("\(source.path) rejected; \(kept)")
                locationService.regionFile(.rejected(source.path, problems: failure.lines))
            }
        }
    }

    /// Reads the remote regions when their file changed (or went); whether they did.
    private func checkRemote() -> Bool {
        guard let remote = watched.withLock({ $0.remote }) else { return false }
        let version = try? remote.version().get()
        guard version != watched.withLock({ $0.remoteVersion }) else { return false }
        var entries: [RegionFile.Entry] = []
        if version != nil {
            switch remote.entries() {
            case .success(let read):
                entries = read
                logger.info("\(remote.path): \(entries.count) remote regions loaded")
            case .failure(let failure):
                // Checked before it was written: only a damaged disk gets here.
                for line in failure.lines { logger.error("\(line)") }
                logger.error("\(remote.path) (the fleet's remote regions) rejected; they are not monitored")
            }
        }
        watched.withLock {
            $0.remoteVersion = version
            $0.remoteEntries = entries
        }
        return true
    }

    /// Monitors the operator's regions and the remote ones beside them; a remote region with the id of one of the
    /// operator's is left out (the operator's file wins).
    @discardableResult
    private func applyBoth() -> RegionSource.Loaded {
        let (entries, remoteEntries, limits) = watched.withLock {
            ($0.entries, $0.remoteEntries, ($0.source ?? $0.remote)?.limits ?? RegionLimits())
        }
        let ids = Set(entries.map(\.id))
        let loaded = RegionSource.loaded(entries + remoteEntries.filter { !ids.contains($0.id) }, within: limits)
        locationService.apply(loaded)
        return loaded
    }

    /// What a file that cannot be used leaves monitored.
    private var kept: String {
        loadedOnce.load(ordering: .relaxed) ? "the regions monitored are kept" : "no regions are monitored"
    }
}
