import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// Watches `[regions] file`: loads it at start and whenever it changes and settles (checked every second; see
/// ``RegionFileWatch``), and hands each good version to the location service. A file with problems, or one that
/// exists but cannot be read, is rejected with one log line per problem, and the last good set stays monitored;
/// the location service raises `region_file_rejected` until a version loads. A missing file is a warning only
/// (there may be no regions yet). Without a file it stays asleep (a parked agent saving power must not wake every
/// second for nothing); a reload that names one loads it at once.
final class RegionFileService: Service, Sendable {
    static let pollInterval = Duration.seconds(1)

    private let locationService: LocationService
    private let logger: Logger
    private let watched: Mutex<Watched>
    /// Whether a version of a region file loaded since the start: until then a rejected file leaves no region
    /// monitored.
    private let loadedOnce = Atomic<Bool>(false)
    /// Wakes an idle ``run()`` when a reload names a file.
    private let fileNamed: AsyncStream<Void>
    private let nameFile: AsyncStream<Void>.Continuation

    private struct Watched {
        var source: RegionSource?
        var watch = RegionFileWatch()
    }

    init(settings: RegionsSettings, locationService: LocationService, logger: Logger) {
        self.locationService = locationService
        self.logger = logger
        watched = Mutex(Watched(source: settings.file.map { RegionSource(path: $0, settings: settings) }))
        (fileNamed, nameFile) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Watches the file of reloaded `[regions]` settings (a new path, or new limits: loaded again).
    func use(_ settings: RegionsSettings) {
        let source = settings.file.map { RegionSource(path: $0, settings: settings) }
        let changed = watched.withLock { watched in
            guard watched.source?.path != source?.path || watched.source?.limits != source?.limits else {
                return false
            }
            watched = Watched(source: source)
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
                    try? await Task.sleep(for: Self.pollInterval)
                } else {
                    await reloads.next()
                }
            }
        }
    }

    /// Loads the file when it is new, or changed and settled since the last look (``RegionFileWatch``).
    func check() {
        let (action, source) = watched.withLock { watched -> (RegionFileWatch.Action, RegionSource?) in
            guard let source = watched.source else { return (.nothing, nil) }
            return (watched.watch.look(source.version()), source)
        }
        guard let source else { return }
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
            switch source.load() {
            case .success(let loaded):
                logger.info("\(source.path): \(loaded.count) regions loaded")
                locationService.apply(loaded)
                locationService.regionFile(.loaded(source.path))
                loadedOnce.store(true, ordering: .relaxed)
            case .failure(let failure):
                for line in failure.lines { logger.error("\(line)") }
                logger.error("\(source.path) rejected; \(kept)")
                locationService.regionFile(.rejected(source.path, problems: failure.lines))
            }
        }
    }

    /// What a file that cannot be used leaves monitored.
    private var kept: String {
        loadedOnce.load(ordering: .relaxed) ? "the regions monitored are kept" : "no regions are monitored"
    }
}
