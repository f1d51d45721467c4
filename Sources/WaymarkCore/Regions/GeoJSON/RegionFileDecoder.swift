import WaymarkFormats

/// Reads a region file into ``RegionFile/Feature``s and problems: the work behind
/// ``RegionFile/init(parsing:fileName:)``.
///
/// One pass over the bytes with a ``JSONReader``; a feature's region is built as its members are read, and
/// nothing of the JSON is kept. The state of the feature being read lives here, reused from one to the next.
struct RegionFileDecoder {
    let fileName: String
    private(set) var features: [RegionFile.Feature] = []
    private(set) var collectionProblems: [RegionFileProblem] = []

    /// Each id taken so far, with the feature that took it and where.
    private var owners: [String: (index: Int, position: TextPosition)] = [:]
    /// Problems recorded in all, the per-feature summaries included.
    private var problemCount = 0
    /// The index of the feature being read; nil outside the features.
    private(set) var featureIndex: Int?
    /// Problems of the feature being read, and how many beyond ``RegionFile/maximumProblemsPerFeature`` were
    /// left out.
    private var featureProblems: [RegionFileProblem] = []
    private var omittedProblems = 0
    /// The indices below `geometry.coordinates` of the value being read, for messages.
    var coordinatePath: [Int] = []

    init(fileName: String) {
        self.fileName = fileName
    }

    mutating func decode(_ bytes: [UInt8]) {
        do throws(JSONReaderError) {
            var reader = try JSONReader(bytes)
            try readCollection(&reader)
            try reader.finish()
        } catch {
            collectionProblems.append(
                RegionFileProblem(
                    code: .malformedJSON,
                    file: fileName,
                    position: error.position,
                    featureIndex: featureIndex,
                    message: error.message
                )
            )
        }
    }

    private mutating func readCollection(_ reader: inout JSONReader) throws(JSONReaderError) {
        let kind = try reader.peek()
        let start = reader.position
        guard kind == .object else {
            report(.notFeatureCollection, at: start, "the file must hold a GeoJSON FeatureCollection, not \(kind)")
            try reader.skipValue()
            return
        }
        try reader.beginObject()
        var type: (unexpected: String?, position: TextPosition)?
        var hasFeatures = false
        var keys = SeenKeys()
        while let key = try reader.nextKey() {
            if isRepeated(key, in: &keys, of: "the FeatureCollection", at: reader, member: key) { continue }
            switch key {
            case "type":
                let position = reader.position
                type = (try unexpectedType(&reader, expected: "FeatureCollection"), position)
            case "features":
                hasFeatures = true
                try readFeatures(&reader)
            default:
                continue
            }
        }
        if let type, let unexpected = type.unexpected {
            report(
                .notFeatureCollection,
                at: type.position,
                member: "type",
                value: unexpected,
                "must be \"FeatureCollection\": a region file holds one, even for a single region"
            )
        } else if type == nil {
            report(
                .notFeatureCollection,
                at: start,
                member: "type",
                "missing: the top level must be a FeatureCollection"
            )
        }
        if !hasFeatures {
            report(.notFeatureCollection, at: start, member: "features", "missing: the regions are its features")
        }
    }

    private mutating func readFeatures(_ reader: inout JSONReader) throws(JSONReaderError) {
        guard try reader.peek() == .array else {
            let position = reader.position
            report(
                .notFeatureCollection,
                at: position,
                member: "features",
                value: try shown(&reader),
                "must be an array of Feature objects"
            )
            return
        }
        try reader.beginArray()
        var stopped = false
        while let index = try reader.nextElement() {
            guard problemCount < RegionFile.maximumProblems else {
                if !stopped {
                    stopped = true
                    report(
                        .tooManyProblems,
                        at: reader.position,
                        "more than \(RegionFile.maximumProblems) problems: features[\(index)] and those after it "
                            + "were not checked"
                    )
                }
                continue
            }
            featureIndex = index
            let feature = try readFeature(&reader, index: index)
            featureIndex = nil
            features.append(feature)
        }
    }

    /// Ends the feature being read: its problems, with the id and a note of those left out, and its region if
    /// it has none. Checks the id against those of earlier features.
    mutating func finishFeature(
        index: Int,
        position: TextPosition,
        id: (text: String, member: String, position: TextPosition)?,
        region: Region?,
        beaconRegion: BeaconRegion? = nil,
        vertexCount: Int
    ) -> RegionFile.Feature {
        if let id {
            if let owner = owners[id.text] {
                report(
                    .duplicateID,
                    at: id.position,
                    member: id.member,
                    value: JSONText.quoted(id.text),
                    "already the id of features[\(owner.index)] at line \(owner.position.line); ids must be unique"
                )
            } else {
                owners[id.text] = (index, id.position)
            }
        }
        if omittedProblems > 0 {
            let last = featureProblems.map(\.position).max() ?? position
            featureProblems.append(
                RegionFileProblem(
                    code: .tooManyProblems,
                    file: fileName,
                    position: last,
                    featureIndex: index,
                    message: "\(omittedProblems) more problems in this feature are not listed"
                )
            )
            problemCount += 1
        }
        var problems: [RegionFileProblem] = []
        if !featureProblems.isEmpty {
            problems = featureProblems.enumerated()
                .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
                .map(\.element)
            for offset in problems.indices { problems[offset].featureID = id?.text }
            featureProblems.removeAll(keepingCapacity: true)
        }
        omittedProblems = 0
        return RegionFile.Feature(
            index: index,
            position: position,
            id: id?.text,
            region: problems.isEmpty ? region : nil,
            beaconRegion: problems.isEmpty ? beaconRegion : nil,
            vertexCount: vertexCount,
            problems: problems
        )
    }

    /// Whether the feature being read has a problem so far.
    var featureHasProblems: Bool { !featureProblems.isEmpty || omittedProblems > 0 }

    /// Records a problem of the feature being read, or of the file outside the features.
    mutating func report(
        _ code: RegionFileProblem.Code,
        at position: TextPosition,
        member: String? = nil,
        value: String? = nil,
        _ message: String
    ) {
        let problem = RegionFileProblem(
            code: code,
            file: fileName,
            position: position,
            featureIndex: featureIndex,
            member: member,
            value: value,
            message: message
        )
        guard featureIndex != nil else {
            collectionProblems.append(problem)
            problemCount += 1
            return
        }
        guard featureProblems.count < RegionFile.maximumProblemsPerFeature else {
            omittedProblems += 1
            return
        }
        featureProblems.append(problem)
        problemCount += 1
    }

    /// Whether `key`, which `reader` just announced, was given before in the object whose keys are `keys`; if so,
    /// records a problem that names the object (`the properties of feature 12`) and its line, and the caller
    /// skips the value. A region file is refused rather than read with the last of two values winning, as most
    /// JSON readers do: it is edited by hand, and a key given twice is a mistake whose intent no reader can know.
    mutating func isRepeated(
        _ key: String,
        in keys: inout SeenKeys,
        of object: @autoclosure () -> String,
        at reader: JSONReader,
        member: @autoclosure () -> String
    ) -> Bool {
        let position = reader.keyPosition
        guard let first = keys.insert(key, at: position) else { return false }
        report(
            .duplicateKey,
            at: position,
            member: member(),
            "duplicate key \(JSONText.quoted(key)) in \(object()), line \(position.line) (first given at line "
                + "\(first.line)); give each key once"
        )
        return true
    }

    /// Reads a `type` member: nil if it is the string `expected`, else its value as a problem shows it.
    func unexpectedType(_ reader: inout JSONReader, expected: String) throws(JSONReaderError) -> String? {
        guard try reader.peek() == .string else { return try shown(&reader) }
        let name = try reader.readString()
        return name == expected ? nil : JSONText.quoted(name)
    }

    /// Reads the next value and returns it as a problem shows it: as JSON if it is a number, string, boolean or
    /// null, else `an array` or `an object`.
    func shown(_ reader: inout JSONReader) throws(JSONReaderError) -> String {
        switch try reader.peek() {
        case .string: return JSONText.quoted(try reader.readString())
        case .number: return try reader.readNumberText()
        case .boolean: return try reader.readBoolean() ? "true" : "false"
        case .null:
            try reader.readNull()
            return "null"
        case let kind:
            try reader.skipValue()
            return kind.description
        }
    }
}
