import Glibc
import WaymarkCore
import WaymarkSystem

/// Reads and edits a region file (`[regions] file`) for `waymark regions`: adds, replaces and removes regions,
/// geographic and beacon, by id, and keeps every other region as it was.
///
/// Every change reads the whole file strictly (a file with any problem is left alone), checks the new regions
/// as the agent will (their shape, ``RegionLimits``), and rewrites the file atomically (``AtomicFile``: a
/// temporary file, fsync, rename), so that a running agent, which polls the file every second, sees the old
/// version or the new one, never a part. The text is written by ``RegionFile/encode(_:)``: one feature per line,
/// properties in a fixed order; members that file does not read (a top-level `description`, a feature's
/// `bbox`) are not kept.
///
/// Editors on the same machine take turns: each change holds an exclusive `flock` on the file's directory
/// from reading to renaming, so two commands run at once both take effect.
public struct RegionFileEditor: Sendable {
    /// What a change did to one region.
    public enum Change: Hashable, Sendable {
        case added(id: String)
        case replaced(id: String)
        case removed(id: String)

        public var id: String {
            switch self {
            case .added(let id), .replaced(let id), .removed(let id): id
            }
        }
    }

    /// What ``merge(_:skippingInvalid:keepingNames:)`` did.
    public struct Merge: Hashable, Sendable {
        /// The regions added or replaced, in the order of the input; empty when nothing was written.
        public var changes: [Change]
        /// The problems of the features that were left out, or that kept the file from being written: one line
        /// each, naming the feature.
        public var problems: [String]
        /// How many features have ``problems``.
        public var invalidCount: Int
        /// Whether the file was written.
        public var written: Bool
    }

    /// The region file, absolute.
    public let path: String
    public let limits: RegionLimits

    /// An editor of the file at `path` (relative to the working directory unless absolute), checking new
    /// regions against `limits`.
    public init(path: String, limits: RegionLimits = RegionLimits()) {
        self.path = Self.absolute(path)
        self.limits = limits
    }

    /// An editor of the file at `path` with the limits of `[regions]`.
    public init(path: String, settings: RegionsSettings) {
        self.init(
            path: path,
            limits: RegionLimits(
                maxRegions: settings.maxRegions,
                maxRadius: settings.maxRadius,
                maxVertices: settings.maxVertices
            )
        )
    }

    /// The geographic regions of the file, in its order; nil when there is no file.
    ///
    /// - Throws: the errors of ``entries()``.
    public func regions() throws(RegionEditError) -> [Region]? {
        try entries()?.compactMap(\.region)
    }

    /// The regions of the file, geographic and beacon, in its order; nil when there is no file.
    ///
    /// - Throws: ``RegionEditError``: ``RegionEditError/Code/malformedFile`` with every problem of the file,
    ///   one line each as the agent logs them; ``RegionEditError/Code/cannotRead``.
    public func entries() throws(RegionEditError) -> [RegionFile.Entry]? {
        var status = stat()
        if stat(path, &status) != 0, errno == ENOENT { return nil }
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(path)
        } catch {
            throw RegionEditError(code: .cannotRead, message: "\(path): \(error.withoutPath)")
        }
        do {
            return try RegionFile(parsing: bytes, fileName: path).checkedEntries()
        } catch {
            let count = error.problems.count
            throw RegionEditError(
                code: .malformedFile,
                problems: error.problems.map(\.description),
                message: "\(path): \(count) problem\(count == 1 ? "" : "s"): not a valid region file; it is left as "
                    + "it is (a running agent keeps its last good regions); fix it, or remove it to start anew"
            )
        }
    }

    /// Adds the regions of `input` to the file, each replacing the region with its id, and writes the file
    /// (creating it when missing).
    ///
    /// A feature is left out when it has problems, an id with control characters, a shape the agent cannot
    /// monitor, or goes beyond ``limits`` (a new id beyond `maxRegions`, which counts the regions of both kinds
    /// in the file); with such a feature, nothing is
    /// written unless `skippingInvalid`, which writes the others. A file with nothing to add is not rewritten.
    ///
    /// - Parameter keepingNames: a region without a name keeps the name of the region it replaces (a circle or
    ///   a beacon region given on the command line without `--name`); otherwise each region is taken whole, as a
    ///   feature of a file is. A region replaces the region with its id whatever their kinds.
    /// - Throws: ``RegionEditError``: ``RegionEditError/Code/invalidInput`` when the input's text is not one
    ///   that ``RegionInput`` reads; the errors of ``regions()``; ``RegionEditError/Code/cannotWrite``.
    public func merge(
        _ input: RegionInput,
        skippingInvalid: Bool,
        keepingNames: Bool = false
    ) throws(RegionEditError) -> Merge {
        guard input.textProblems.isEmpty else {
            throw RegionEditError(
                code: .invalidInput,
                problems: input.textProblems,
                message: "\(input.name): not a GeoJSON FeatureCollection or Feature of regions; \(path) not changed"
            )
        }
        // The agent's own checks, for the regions that parsed: shape, radius, vertices.
        let candidates = input.features.compactMap(\.region)
        let shapeLimits = RegionLimits(maxRegions: .max, maxRadius: limits.maxRadius, maxVertices: limits.maxVertices)
        let refusals = Dictionary(
            RegionIndex.monitoring(candidates, within: shapeLimits).refusals.map { ($0.id, $0.reason) },
            uniquingKeysWith: { first, _ in first }
        )
        return try locked { () throws(RegionEditError) -> Merge in
            var entries = try self.entries() ?? []
            var slots = [String: Int](minimumCapacity: entries.count)
            for (slot, entry) in entries.enumerated() { slots[entry.id] = slot }
            var changes: [Change] = []
            var problems: [String] = []
            var invalidCount = 0
            for feature in input.features {
                guard var entry = feature.entry else {
                    problems += feature.problems
                    invalidCount += 1
                    continue
                }
                var reason = Self.problem(withID: entry.id) ?? (entry.region == nil ? nil : refusals[entry.id])
                if reason == nil, slots[entry.id] == nil, entries.count >= limits.maxRegions {
                    reason = "more than max_regions = \(limits.maxRegions): the file holds \(entries.count) regions"
                }
                if let reason {
                    problems.append(feature.problem(reason))
                    invalidCount += 1
                } else if let slot = slots[entry.id] {
                    if keepingNames && entry.name == nil { entry.name = entries[slot].name }
                    entries[slot] = entry
                    changes.append(.replaced(id: entry.id))
                } else {
                    slots[entry.id] = entries.count
                    entries.append(entry)
                    changes.append(.added(id: entry.id))
                }
            }
            guard problems.isEmpty || skippingInvalid, !changes.isEmpty else {
                return Merge(changes: [], problems: problems, invalidCount: invalidCount, written: false)
            }
            try write(entries)
            return Merge(changes: changes, problems: problems, invalidCount: invalidCount, written: true)
        }
    }

    /// Removes the regions with `ids` (each once, whatever the repeats) and writes the file.
    ///
    /// - Throws: ``RegionEditError``: ``RegionEditError/Code/unknownID`` naming every id the file does not
    ///   have, and then nothing is removed; the errors of ``regions()``; ``RegionEditError/Code/cannotWrite``.
    public func remove(_ ids: [String]) throws(RegionEditError) -> [Change] {
        var seen = Set<String>()
        let ids = ids.filter { seen.insert($0).inserted }
        return try locked { () throws(RegionEditError) -> [Change] in
            let entries = try self.entries()
            let present = Set((entries ?? []).map(\.id))
            let unknown = ids.filter { !present.contains($0) }
            guard unknown.isEmpty else {
                let names = unknown.map(\.debugDescription).joined(separator: ", ")
                let file = entries == nil ? "no such file, so no region" : "no region"
                throw RegionEditError(code: .unknownID, message: "\(path): \(file) \(names); nothing removed")
            }
            try write((entries ?? []).filter { !seen.contains($0.id) })
            return ids.map { .removed(id: $0) }
        }
    }

    /// What is wrong with a new region's id, or nil: the agent keeps the ids of the regions it is inside one
    /// per line in `regions.state`.
    static func problem(withID id: String) -> String? {
        if id.isEmpty { return "the id must not be empty" }
        guard id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return "the id must not contain control characters, such as a line break"
    }

    private func write(_ entries: [RegionFile.Entry]) throws(RegionEditError) {
        do {
            try AtomicFile.write(RegionFile.encode(entries: entries), to: path)
        } catch {
            throw RegionEditError(code: .cannotWrite, message: "\(error.description); \(path) not changed")
        }
    }

    /// Runs `body` holding an exclusive lock on the file's directory, which every editor takes; without it
    /// when the directory cannot be opened (writing then fails and says why).
    private func locked<Result>(
        _ body: () throws(RegionEditError) -> Result
    ) throws(RegionEditError) -> Result {
        let descriptor = open(Files.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        guard SystemCall.retryingInterrupts({ flock(descriptor, LOCK_EX) }) == 0 else {
            let failure = SystemError(call: "lock", path: Files.directory(of: path))
            throw RegionEditError(code: .cannotWrite, message: "\(failure); \(path) not changed")
        }
        return try body()
    }

    /// `path` made absolute with the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return directory == "/" ? "/" + relative : directory + "/" + relative
    }
}
