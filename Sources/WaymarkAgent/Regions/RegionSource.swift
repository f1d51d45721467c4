import WaymarkCore
import WaymarkGPSD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The region file of `[regions] file`: loaded strictly (any problem rejects the whole file, each problem
/// one line), checked against the limits, and watched for changes.
struct RegionSource: Sendable {
    /// A loaded file: the index of the regions monitored and the refusals of those over a limit.
    struct Loaded: Sendable {
        var index: RegionIndex
        var refusals: [RegionRefusal]
        var count: Int
    }

    /// What identifies a version of the file: a change of any of these is a new version.
    struct Version: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    let path: String
    let limits: RegionLimits

    init(path: String, settings: RegionsSettings) {
        self.path = path
        limits = RegionLimits(
            maxRegions: settings.maxRegions,
            maxRadius: settings.maxRadius,
            maxVertices: settings.maxVertices
        )
    }

    /// The regions of the file, or one line per problem.
    func load() -> Result<Loaded, LoadFailure> {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            return .failure(LoadFailure(lines: ["\(path): \(error.message)"]))
        }
        let file = RegionFile(parsing: bytes, fileName: path)
        let regions: [Region]
        do {
            regions = try file.checkedRegions()
        } catch {
            return .failure(LoadFailure(lines: error.problems.map(\.description)))
        }
        let (index, refusals) = RegionIndex.monitoring(regions, within: limits)
        return .success(Loaded(index: index, refusals: refusals, count: index.count))
    }

    /// The file's current version, or the system's reason it cannot be read ("No such file or directory").
    func version() -> Result<Version, Unreadable> {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return .failure(Unreadable(reason: String(cString: strerror(errno)), missing: errno == ENOENT))
        }
        return .success(
            Version(
                device: UInt64(status.st_dev),
                inode: UInt64(status.st_ino),
                size: Int64(status.st_size),
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            )
        )
    }

    /// Why the file cannot be read.
    struct Unreadable: Error, Sendable {
        var reason: String
        /// There is no file (rather than one that cannot be read).
        var missing: Bool
    }

    struct LoadFailure: Error, Sendable {
        var lines: [String]
    }
}
