import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// Watches `[regions] file`: loads it at start and whenever it changes (checked every second), and hands
/// each good version to the location service. A file with problems, or one that exists but cannot be read, is
/// rejected with one log line per problem, and the last good set stays monitored; the location service raises
/// `region_file_rejected` until a version loads. A missing file is a warning only (there may be no regions yet). Without a file it stays asleep (a parked agent saving
/// power must not wake every second for nothing); a reload that names one loads it at once.
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
        /// The version last looked at, good or not: it is not loaded again until it changes.
        var version: RegionSource.Version?
        /// Why the file could not be read, as last said; said again only when the reason changes (a missing file
        /// that becomes a link loop is news).
        var unreadableReported: String?
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

    /// What a look at the file calls for.
    private enum Look {
        case nothing
        case load(RegionSource)
        /// The file exists but cannot be read (its `reason`), said once until it can be read again.
        case unreadable(RegionSource, reason: String)
    }

    /// Loads the file when it is new or changed since the last look.
    func check() {
        let look = watched.withLock { watched -> Look in
            guard let source = watched.source else { return .nothing }
            let version: RegionSource.Version
            switch source.version() {
            case .success(let current):
                version = current
            case .failure(let unreadable):
                // Once, until it can be read again: a missing file is a warning (there may be no regions yet),
                // one that exists but cannot be read an error and an alarm, as a rejected one.
                defer {
                    watched.unreadableReported = unreadable.reason
                    watched.version = nil
                }
                guard watched.unreadableReported != unreadable.reason else { return .nothing }
                guard !unreadable.missing else {
                    logger.warning("\(source.path): \(unreadable.reason); \(self.kept)")
                    return .nothing
                }
                return .unreadable(source, reason: unreadable.reason)
            }
            watched.unreadableReported = nil
            guard version != watched.version else { return .nothing }
            watched.version = version
            return .load(source)
        }
        switch look {
        case .nothing:
            return
        case .unreadable(let source, let reason):
            let line = "\(source.path): \(reason)"
            logger.error("\(line); \(kept)")
            locationService.regionFile(.rejected(source.path, problems: [line]))
        case .load(let source):
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
