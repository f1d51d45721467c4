import Glibc
import WaymarkCore
import WaymarkSystem

/// The region file of `[regions] file`: loaded strictly (any problem rejects the whole file, each problem
/// one line), checked against the limits, and watched for changes.
struct RegionSource: Sendable {
    /// A loaded file: the index of the geographic regions monitored, the beacon regions monitored, and the
    /// refusals of those over a limit.
    struct Loaded: Sendable {
        var index: RegionIndex
        var refusals: [RegionRefusal]
        /// The geographic regions monitored (``index``'s count).
        var count: Int
        /// The beacon regions monitored (features with `"geometry": null`), in file order.
        var beaconRegions: [BeaconRegion] = []
        /// The monitored set's digest (``FleetDigests/regions(_:beacons:)``), for the fleet's status.
        var digest = FleetDigests.regions([], beacons: [])
    }

    /// What identifies a version of the file: a change of any of its fields is a new version.
    typealias Version = FileVersion

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
        entries().map { Self.loaded($0, within: limits) }
    }

    /// The regions of the file, both kinds, in its order, or one line per problem.
    func entries() -> Result<[RegionFile.Entry], LoadFailure> {
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(path)
        } catch {
            return .failure(LoadFailure(lines: ["\(path): \(error.withoutPath)"]))
        }
        do {
            return .success(try RegionFile(parsing: bytes, fileName: path).checkedEntries())
        } catch {
            return .failure(LoadFailure(lines: error.problems.map(\.description)))
        }
    }

    /// What of `entries` is monitored within `limits`.
    static func loaded(_ entries: [RegionFile.Entry], within limits: RegionLimits) -> Loaded {
        let monitored = Self.monitoring(entries, within: limits)
        let regions = entries.compactMap(\.region).filter { monitored.index.slot(of: $0.id) != nil }
        return Loaded(
            index: monitored.index,
            refusals: monitored.refusals,
            count: monitored.index.count,
            beaconRegions: monitored.beaconRegions,
            digest: FleetDigests.regions(regions, beacons: monitored.beaconRegions)
        )
    }

    /// The regions of `entries` that are monitored within `limits`, and the refusals of the others.
    ///
    /// `maxRegions` bounds both kinds together. The geographic regions are taken first, exactly as without beacon
    /// regions (``RegionIndex/monitoring(_:within:)``); the beacon regions, which have no shape to check, fill
    /// the places left, in file order, and those beyond are refused as geographic ones are: `more than
    /// max_regions = N`. Adding a beacon region never takes the place of a monitored area.
    static func monitoring(
        _ entries: [RegionFile.Entry],
        within limits: RegionLimits
    ) -> (index: RegionIndex, beaconRegions: [BeaconRegion], refusals: [RegionRefusal]) {
        var (index, refusals) = RegionIndex.monitoring(entries.compactMap(\.region), within: limits)
        var beaconRegions: [BeaconRegion] = []
        for region in entries.compactMap(\.beaconRegion) {
            if index.count + beaconRegions.count < limits.maxRegions {
                beaconRegions.append(region)
            } else {
                refusals.append(RegionRefusal(id: region.id, reason: "more than max_regions = \(limits.maxRegions)"))
            }
        }
        return (index, beaconRegions, refusals)
    }

    /// The file's current version, or the system's reason it cannot be read ("No such file or directory").
    func version() -> Result<Version, Unreadable> {
        guard let version = FileVersion.of(path) else {
            return .failure(Unreadable(reason: SystemError.reason(errno), missing: errno == ENOENT))
        }
        return .success(version)
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
