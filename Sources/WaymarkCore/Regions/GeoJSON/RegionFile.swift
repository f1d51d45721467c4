import WaymarkFormats

/// The regions of a region file: a GeoJSON FeatureCollection (RFC 7946), one feature per region.
///
/// A circle is a Point feature with a `radius` property in metres; a polygon is a Polygon or MultiPolygon feature,
/// each polygon its outer ring then its holes. Positions are `[longitude, latitude]` or `[longitude, latitude,
/// altitude]`, the altitude ignored. Properties:
///
/// - `id`: a non-empty string, unique in the file; an integer is taken as its decimal text (`17` is `"17"`).
///   Without `properties.id`, the Feature's own `id` member is taken the same way; with both, they must agree.
/// - `name`: a string, optional.
/// - `notify_on_entry`, `notify_on_exit`: booleans, true when absent.
/// - `speed_limit`: a number of km/h above 0 and up to 1000 (kept to a tenth), optional: the overspeed limit of
///   `[driving]` inside the region.
///
/// A feature whose `geometry` is `null` is a beacon region (``BeaconRegion``, Core Location's `CLBeaconRegion`):
/// the vehicle is inside while it hears an iBeacon that matches its `beacon` property, an object of `uuid`
/// (8-4-4-4-12 hexadecimal digits, either case), and optionally `major`, and with it optionally `minor` (integers
/// from 0 to 65535): `"beacon": {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1}`. Its `ranging`
/// property, a boolean, says whether its beacons are ranged; absent, `[beacons] ranging` decides. A `beacon` with
/// a geometry, a `null` geometry without a `beacon`, a `radius` or `ranging` on the wrong kind of feature and a
/// member of `beacon` other than those three (a misspelt `major` would widen the region) are problems. Ids are
/// unique across both kinds.
///
/// A property that is `null` counts as absent. Members and properties not named here (`description`, `bbox`,
/// `crs`, …) are ignored, as RFC 7946 says of foreign members. Ring orientation is not checked (RFC 7946 asks
/// parsers not to reject either winding), nor that holes lie inside their outer ring, nor self-intersection.
///
/// Parsing never fails: it reports what became of each feature and every problem in the file. A strict loader
/// takes ``checkedEntries()`` (or ``checkedRegions()`` for the areas alone), which refuses the whole file at the
/// first problem and lists them all; a command that imports feature by feature reads ``features``. Limits on the
/// number of regions, radii and vertices belong to the caller; ``Feature/vertexCount`` is there to check the last.
public struct RegionFile: Sendable {
    /// What became of one element of `features`.
    public struct Feature: Hashable, Sendable {
        /// 0-based, in `features`.
        public var index: Int
        /// Where the feature's object opens.
        public var position: TextPosition
        /// The id, if the feature has a usable one (a duplicate included).
        public var id: String?
        /// The region; nil when the feature has problems or is a beacon region.
        public var region: Region?
        /// The beacon region of a feature whose geometry is `null`; nil when the feature has problems or is a
        /// geographic region.
        public var beaconRegion: BeaconRegion?
        /// The vertices of a polygon region, each ring's closing position not counted; 0 for a circle or a beacon
        /// region.
        public var vertexCount: Int
        /// What is wrong with the feature, ordered by position; empty when ``region`` or ``beaconRegion`` is set.
        public var problems: [RegionFileProblem]

        public init(
            index: Int,
            position: TextPosition,
            id: String?,
            region: Region?,
            beaconRegion: BeaconRegion? = nil,
            vertexCount: Int,
            problems: [RegionFileProblem]
        ) {
            self.index = index
            self.position = position
            self.id = id
            self.region = region
            self.beaconRegion = beaconRegion
            self.vertexCount = vertexCount
            self.problems = problems
        }

        /// The region of either kind; nil when the feature has problems.
        public var entry: Entry? {
            if let region { return .geographic(region) }
            return beaconRegion.map { .beacon($0) }
        }
    }

    /// At most this many problems are listed for one feature; one more problem says how many were left out.
    public static let maximumProblemsPerFeature = 10
    /// After this many problems, the features that follow are not checked (the JSON still is); one more problem
    /// says so. This bounds the memory a hostile file can take.
    public static let maximumProblems = 1_000

    /// The name of the file in problems, as given to ``init(parsing:fileName:)``.
    public var fileName: String
    /// One entry per element of the `features` array read, in file order: all of them unless
    /// ``collectionProblems`` says the file is malformed or has too many problems.
    public var features: [Feature]
    /// The problems of the file as a whole: malformed JSON, not a FeatureCollection, too many problems. When there
    /// is one, ``features`` may stop short of the end of the file, and no feature of it should be used.
    public var collectionProblems: [RegionFileProblem]

    /// Reads a region file from its bytes (UTF-8).
    ///
    /// - Parameters:
    ///   - bytes: the whole file; at most ``JSONLimits/maximumBytes`` (256 MiB) of the default ``JSONLimits``.
    ///   - fileName: how problems name the file: `regions.geojson`.
    public init(parsing bytes: [UInt8], fileName: String) {
        var decoder = RegionFileDecoder(fileName: fileName)
        decoder.decode(bytes)
        self.fileName = fileName
        self.features = decoder.features
        self.collectionProblems = decoder.collectionProblems
    }

    /// The geographic regions of the features without problems, in file order.
    public var regions: [Region] { features.compactMap(\.region) }

    /// The beacon regions of the features without problems, in file order.
    public var beaconRegions: [BeaconRegion] { features.compactMap(\.beaconRegion) }

    /// The regions of both kinds of the features without problems, in file order.
    public var entries: [Entry] { features.compactMap(\.entry) }

    /// Every problem, of the file and of its features, ordered by position.
    public var problems: [RegionFileProblem] {
        let all = collectionProblems + features.flatMap(\.problems)
        return all.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
            .map(\.element)
    }

    /// The geographic regions of the file, if it has no problem at all (its beacon regions included): then
    /// ``beaconRegions`` are the file's beacon regions.
    ///
    /// - Throws: ``RegionFileError`` with every problem in the file, ordered by position.
    public func checkedRegions() throws(RegionFileError) -> [Region] {
        try checkedEntries().compactMap(\.region)
    }

    /// The regions of both kinds of the file, in its order, if it has no problem at all.
    ///
    /// - Throws: ``RegionFileError`` with every problem in the file, ordered by position.
    public func checkedEntries() throws(RegionFileError) -> [Entry] {
        let problems = problems
        guard problems.isEmpty else { throw RegionFileError(problems: problems) }
        return entries
    }
}
