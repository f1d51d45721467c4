import Glibc
import WaymarkCore
import WaymarkFormats
import WaymarkSystem

/// Regions to put into a region file: the features of a GeoJSON text, a FeatureCollection or a single Feature
/// (as ``RegionFile`` reads them: geographic and beacon regions), or one region built on the command line.
///
/// Each feature is its region or its problems; a problem found later, such as a limit of the configuration,
/// names the feature the same way: `import.geojson:3:5: features[1] (id "yard"): ...`.
public struct RegionInput: Sendable {
    /// One region to put into the file, or what keeps it out.
    public struct Feature: Sendable {
        /// The region; nil when the feature has problems or is a beacon region.
        public var region: Region?
        /// The beacon region; nil when the feature has problems or is a geographic region.
        public var beaconRegion: BeaconRegion?
        /// What is wrong with the feature, one line each; empty when ``region`` or ``beaconRegion`` is set.
        public var problems: [String]
        /// Where the feature comes from, to name it in a problem.
        let origin: Origin

        /// The region of either kind; nil when the feature has problems.
        public var entry: RegionFile.Entry? {
            if let region { return .geographic(region) }
            return beaconRegion.map { .beacon($0) }
        }

        /// A problem of the feature as one line that names it: `FILE:LINE:COLUMN: features[N] (id "ID"): reason`.
        func problem(_ reason: String) -> String {
            switch origin {
            case .file(let name, let index, let position, let id):
                RegionFileProblem(
                    code: .invalidCoordinates,
                    file: name,
                    position: position,
                    featureIndex: index,
                    featureID: id,
                    message: reason
                ).description
            case .commandLine(let id):
                "region \(id.debugDescription): \(reason)"
            }
        }
    }

    enum Origin: Sendable {
        /// A feature of a text; `index` nil for a text that is a single Feature.
        case file(name: String, index: Int?, position: TextPosition, id: String?)
        case commandLine(id: String)
    }

    /// How problems name the input: its path, `stdin`, `the command line`.
    public var name: String
    /// The features, in the order of the text.
    public var features: [Feature]
    /// The problems of the text as a whole, with those of its features, one line each: when there is one, the
    /// text is not JSON or not GeoJSON that this reads, and ``features`` is empty.
    public var textProblems: [String]

    /// The regions of a GeoJSON text: a FeatureCollection, or a single Feature.
    ///
    /// - Parameter name: how problems name the text: its path, or `stdin`.
    public init(parsing bytes: [UInt8], name: String) {
        self.name = name
        let single: Bool
        switch Self.kind(of: bytes) {
        case .feature:
            single = true
        case .malformedFeature(let error):
            let problem = RegionFileProblem(
                code: .malformedJSON,
                file: name,
                position: error.position,
                message: error.message
            )
            features = []
            textProblems = [problem.description]
            return
        case .other:
            single = false
        }
        // A Feature is read as the one element of a FeatureCollection written around it on its first line;
        // positions on that line are moved back by the text put before it.
        let prefix = Array(#"{"type": "FeatureCollection", "features": ["#.utf8)
        let text = single ? prefix + bytes.trimmingByteOrderMark() + Array("\n]}".utf8) : bytes
        let file = RegionFile(parsing: text, fileName: name)
        func moved(_ position: TextPosition) -> TextPosition {
            guard single, position.line == 1 else { return position }
            return TextPosition(line: 1, column: max(1, position.column - prefix.count))
        }
        func line(_ problem: RegionFileProblem) -> String {
            var problem = problem
            problem.position = moved(problem.position)
            if single { problem.featureIndex = nil }
            return problem.description
        }
        guard file.collectionProblems.isEmpty else {
            features = []
            textProblems = file.problems.map(line)
            return
        }
        textProblems = []
        features = file.features.map { feature in
            Feature(
                region: feature.region,
                beaconRegion: feature.beaconRegion,
                problems: feature.problems.map(line),
                origin: .file(
                    name: name,
                    index: single ? nil : feature.index,
                    position: moved(feature.position),
                    id: feature.id
                )
            )
        }
    }

    /// One region built from the command line's options.
    public init(_ region: Region) {
        name = "the command line"
        features = [Feature(region: region, problems: [], origin: .commandLine(id: region.id))]
        textProblems = []
    }

    /// One beacon region built from the command line's options.
    public init(_ beaconRegion: BeaconRegion) {
        name = "the command line"
        features = [Feature(beaconRegion: beaconRegion, problems: [], origin: .commandLine(id: beaconRegion.id))]
        textProblems = []
    }

    /// The regions of the GeoJSON file at `path`, or of the standard input for `-`.
    ///
    /// - Throws: ``RegionEditError`` with ``RegionEditError/Code/invalidInput`` when there is no such file,
    ///   ``RegionEditError/Code/cannotRead`` when it cannot be read.
    public static func read(_ path: String) throws(RegionEditError) -> RegionInput {
        let name = path == "-" ? "stdin" : path
        var status = stat()
        if path != "-", stat(path, &status) != 0, errno == ENOENT {
            throw RegionEditError(code: .invalidInput, message: "\(path): no such file")
        }
        do {
            return RegionInput(parsing: try Files.contents(path == "-" ? "/dev/stdin" : path), name: name)
        } catch {
            throw RegionEditError(code: .cannotRead, message: "\(name): \(error.withoutPath)")
        }
    }

    /// What a text holds, as far as choosing how to read it needs.
    enum Kind {
        /// A JSON object whose `type` is `"Feature"`.
        case feature
        /// Such an object, but the text is not JSON after all: why.
        case malformedFeature(JSONReaderError)
        /// Anything else, read as a FeatureCollection, which reports what is wrong with it.
        case other
    }

    static func kind(of bytes: [UInt8]) -> Kind {
        do throws(JSONReaderError) {
            var reader = try JSONReader(bytes)
            guard try reader.peek() == .object else { return .other }
            try reader.beginObject()
            var type: String?
            while type == nil, let key = try reader.nextKey() {
                guard key == "type", try reader.peek() == .string else { continue }
                type = try reader.readString()
            }
            guard type == "Feature" else { return .other }
        } catch {
            return .other
        }
        do throws(JSONReaderError) {
            var whole = try JSONReader(bytes)
            try whole.skipValue()
            try whole.finish()
            return .feature
        } catch {
            return .malformedFeature(error)
        }
    }
}

extension Collection<UInt8> {
    /// The bytes without a leading UTF-8 byte order mark.
    fileprivate func trimmingByteOrderMark() -> [UInt8] {
        starts(with: [0xEF, 0xBB, 0xBF]) ? Array(dropFirst(3)) : Array(self)
    }
}
