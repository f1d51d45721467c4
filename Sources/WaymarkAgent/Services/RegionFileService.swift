import Logging
import ServiceLifecycle
import Synchronization
import WaymarkCore

/// Watches `[regions] file`: loads it at start and whenever it changes (checked every second), and hands
/// each good version to the location service. A file with problems is rejected with one log line per
/// problem, and the last good set stays monitored; the location service raises `region_file_rejected` until
/// a version loads. Without a file it stays asleep (a parked agent saving
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
        var missingReported = false
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

    /// Loads the file when it is new or changed since the last look.
    func check() {
        let next = watched.withLock { watched -> RegionSource? in
            guard let source = watched.source else { return nil }
            let version: RegionSource.Version
            switch source.version() {
            case .success(let current):
                version = current
            case .failure(let unreadable):
                // Once, until it can be read again: a missing file is a warning (there may be no regions yet),
                // one that exists but cannot be read an error.
                if !watched.missingReported {
                    let message = "\(source.path): \(unreadable.reason); the regions monitored are kept"
                    if unreadable.missing { logger.warning("\(message)") } else { logger.error("\(message)") }
                }
                watched.missingReported = true
                watched.version = nil
                return nil
            }
            watched.missingReported = false
            guard version != watched.version else { return nil }
            watched.version = version
            return source
        }
        guard let source = next else { return }
        switch source.load() {
        case .success(let loaded):
            logger.info("\(source.path): \(loaded.count) regions loaded")
            locationService.apply(loaded)
            locationService.regionFile(.loaded(source.path))
            loadedOnce.store(true, ordering: .relaxed)
        case .failure(let failure):
            for line in failure.lines { logger.error("\(line)") }
            let loaded = loadedOnce.load(ordering: .relaxed)
            let kept = loaded ? "the regions monitored are kept" : "no regions are monitored"
            logger.error("\(source.path) rejected; \(kept)")
            locationService.regionFile(.rejected(source.path, problems: failure.lines))
        }
    }
}
