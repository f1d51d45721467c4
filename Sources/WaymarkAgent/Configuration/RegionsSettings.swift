import WaymarkCore

/// `[regions]`: which regions are monitored, within which limits, and how (``RegionSettings``).
public struct RegionsSettings: Sendable, Equatable {
    /// When `region` events reach the sinks: with the next deferred batch, or at once.
    public enum Flush: String, Sendable, Equatable, CaseIterable {
        case deferred
        case immediate
    }

    /// The GeoJSON FeatureCollection of the regions (`file`); nil monitors none.
    public var file: String?
    public var monitor: RegionSettings
    /// At most this many regions are monitored (`max_regions`); the rest are refused, each with an error.
    public var maxRegions: Int
    /// The largest circle radius, or polygon extent from its centre, in metres (`max_radius`; Core
    /// Location's `maximumRegionMonitoringDistance`).
    public var maxRadius: Double
    /// The most vertices a polygon region may have, over all its rings (`max_vertices`).
    public var maxVertices: Int
    public var flush: Flush

    public init(
        file: String? = nil,
        monitor: RegionSettings = .init(),
        maxRegions: Int = 100_000,
        maxRadius: Double = 100_000,
        maxVertices: Int = 1_000,
        flush: Flush = .deferred
    ) {
        self.file = file
        self.monitor = monitor
        self.maxRegions = maxRegions
        self.maxRadius = maxRadius
        self.maxVertices = maxVertices
        self.flush = flush
    }
}

extension RegionsSettings {
    /// Reads `[regions]`.
    mutating func read(from section: inout SectionReader) {
        section.read("file", .absolutePath, into: &file)
        section.read("cushion", .number(in: 0...10_000, "metres"), into: &monitor.cushion)
        section.read("dwell", .duration(atMost: .seconds(3600)), into: &monitor.dwell)
        section.read("max_accuracy", .number(in: 1...100_000, "metres"), into: &monitor.maxAccuracy)
        section.read("max_regions", .integer(in: 0...1_000_000), into: &maxRegions)
        section.read("max_radius", .number(in: 1...1_000_000, "metres"), into: &maxRadius)
        section.read("max_vertices", .integer(in: 4...1_000_000), into: &maxVertices)
        section.read("flush", .oneOf, into: &flush)
    }
}
